// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_files.h"

#include <atomic>
#include <filesystem>

#include "pipeline/frame_batch.h"
#include "png_comments.h"
#include "sidecar.h"

namespace fj::cli {

std::vector<ImageFile> image_files(const ParsedArgs& args, const std::vector<std::string>& paths,
                                   const std::vector<OutputFormat>& formats, bool transparent, int threads) {
    std::vector<ImageFile> files;
    for (size_t i = 0; i < paths.size(); ++i) {
        ImageFile file{paths[i], formats[i], {}, png_comments_wanted(args, formats[i].format)};
        file.options.bits = formats[i].bits;
        file.options.jpeg_quality = formats[i].jpeg_quality;
        file.options.color_space = formats[i].color_space;
        file.options.transparent = transparent;
        file.options.threads = threads;
        files.push_back(std::move(file));
    }
    return files;
}

std::string file_list(const std::vector<ImageFile>& files) {
    std::string list;
    for (const ImageFile& file : files) list += (list.empty() ? "" : ", ") + file.path;
    return list;
}

std::vector<FileText> describe_files(const std::vector<ImageFile>& files, const Flame& rendered,
                                     const RenderResult& result,
                                     const std::vector<std::pair<std::string, std::string>>& extra,
                                     const SidecarSource* sidecar) {
    std::vector<FileText> texts;
    for (const ImageFile& file : files) {
        FileText text{file.options, ""};
        if (file.text || sidecar) add_png_comments(text.options, file.format.format, rendered, result, extra);
        if (sidecar)
            text.sidecar = sidecar_text(file.path, sidecar->command, sidecar->args, sidecar->options, file.format,
                                        text.options);
        if (!file.text) {
            text.options.text.clear();
            text.options.genome_xml.clear();
        }
        texts.push_back(std::move(text));
    }
    return texts;
}

void write_files(ImageWriter& writer, const std::vector<ImageFile>& files, ImageF image,
                 std::vector<FileText> texts, bool linear, std::function<void()> written) {
    const auto shared = std::make_shared<const ImageF>(std::move(image));
    // The files may be written on several threads: the last one done calls.
    std::function<void()> each;
    if (written) {
        auto left = std::make_shared<std::atomic<size_t>>(files.size());
        each = [left, written = std::move(written)] {
            if (--*left == 0) written();
        };
    }
    for (size_t i = 0; i < files.size(); ++i)
        writer.push({files[i].path, shared, std::move(texts[i].options), linear, std::move(texts[i].sidecar), each});
}

bool files_complete(const std::vector<ImageFile>& files, int width, int height, bool sidecar) {
    for (const ImageFile& file : files)
        if (!image_complete(file.path, width, height) || (sidecar && !std::filesystem::exists(sidecar_path(file.path))))
            return false;
    return true;
}

}  // namespace fj::cli
