# flamejit — shared set-up of tools/quickstart.sh and tools/test.sh (sourced).
# Installs missing Debian packages, then configures and builds a Release build
# into build/. Needs the CUDA toolkit in /usr/local/cuda (or CUDA_HOME).
# SPDX-License-Identifier: GPL-3.0-or-later

FJ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FJ_BUILD="$FJ_ROOT/build"
# Build tools and libraries; flam3-utils, libflam3-dev and libopenexr-dev are
# the test oracles; xz-utils packs a bundle into one file (tools/bundle.sh
# --archive, which bundle_test checks); python3 reads NVRTC's compile traces
# (tools/nvrtc_trace.py, which gpu_bench_test runs).
FJ_PACKAGES=(cmake make g++ pkg-config libpng-dev zlib1g-dev libjpeg-dev nlohmann-json3-dev libpugixml-dev
             doctest-dev flam3-utils libflam3-dev libopenexr-dev liblcms2-dev xz-utils python3)

fj_die() { echo "flamejit set-up: $*" >&2; exit 1; }

fj_install_packages() {
    local missing=() p
    for p in "${FJ_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            sudo="sudo"
        else
            fj_die "missing packages: ${missing[*]} — install them with: sudo apt-get install ${missing[*]}"
        fi
    fi
    echo "Installing: ${missing[*]}"
    $sudo apt-get update -qq || fj_die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null \
        || fj_die "apt-get install ${missing[*]} failed"
}

fj_find_cuda() {
    local home="${CUDA_HOME:-/usr/local/cuda}"
    [ -x "$home/bin/nvcc" ] || fj_die "no CUDA toolkit at $home (set CUDA_HOME): nvcc is needed to build"
    export PATH="$home/bin:$PATH"
    FJ_NVCC="$home/bin/nvcc"
}

fj_build() {
    local jobs
    jobs=$(nproc 2>/dev/null || echo 2)
    cmake -S "$FJ_ROOT" -B "$FJ_BUILD" -DCMAKE_BUILD_TYPE=Release \
          -DCMAKE_CUDA_COMPILER="$FJ_NVCC" ${FJ_CMAKE_ARGS:-} >/dev/null \
        || fj_die "cmake configure failed"
    cmake --build "$FJ_BUILD" -j "$jobs" || fj_die "build failed"
}

fj_setup() {
    fj_install_packages
    fj_find_cuda
    fj_build
}
