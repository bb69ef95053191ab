// flamejit — the GPU post-pass (engine/post/post_cuda.cu) built for the host, for tests without a GPU.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Compiled with emulator/runtime ahead of the toolkit on the include path
// (runtime/cuda_runtime.h says what that gives), so that the very source
// nvcc compiles runs its kernels on the emulator in place of the device.
#include "post/post_cuda.cu"
