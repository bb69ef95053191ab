// flamejit — one image's files: the same pixels in each format asked for
// (-o given several times, --format png,exr), each file with its own text
// and sidecar (render, animate).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A tone-mapped PNG to look at and a 16-bit PNG or an EXR to grade, or a
// JPEG to publish, come from one render: the post-pass runs once and its
// image is encoded into every file.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli_common.h"
#include "image/image_stream.h"
#include "image_writer.h"

namespace fj::cli {

struct ImageFile {
    std::string path;
    OutputFormat format;
    ImageOptions options;  // bits, JPEG quality, transparency, threads; the text comes per image
    bool text = true;      // whether it carries the image's text (png_comments_wanted for its format)
};

// The files at `paths`, of `formats` (output_formats_from), each keeping
// alpha where `transparent` and compressed on `threads` threads.
std::vector<ImageFile> image_files(const ParsedArgs& args, const std::vector<std::string>& paths,
                                   const std::vector<OutputFormat>& formats, bool transparent, int threads);
// The paths of `files`, joined by ", " (messages).
std::string file_list(const std::vector<ImageFile>& files);

// What made an image, for its sidecars (sidecar.h): the command and its
// arguments, and the render's options.
struct SidecarSource {
    const char* command;
    const Args& args;
    const RenderOptions& options;
};

// A file's options with the image's text, and its sidecar's text (empty
// without one).
struct FileText {
    ImageOptions options;
    std::string sidecar;
};

// Each file's options with the text of an image rendered from `rendered`
// as `result` says (add_png_comments, for the file's format; left out of a
// file that carries none), and with `sidecar` its sidecar, which holds the
// text whether or not the file does.
std::vector<FileText> describe_files(const std::vector<ImageFile>& files, const Flame& rendered,
                                     const RenderResult& result,
                                     const std::vector<std::pair<std::string, std::string>>& extra,
                                     const SidecarSource* sidecar);

// Queues `image` to be written to every file (each job holds it, none copies
// it); `written`, when set, is called on a writer thread once every file is
// (not when one fails: the writer reports that).
void write_files(ImageWriter& writer, const std::vector<ImageFile>& files, ImageF image,
                 std::vector<FileText> texts, bool linear, std::function<void()> written = {});

// Whether every file, and its sidecar with `sidecar`, is there and whole at
// width × height (--resume).
bool files_complete(const std::vector<ImageFile>& files, int width, int height, bool sidecar);

}  // namespace fj::cli
