// flamejit — a still's histogram kept in a file, to resume at a higher
// quality or to tone-map again without iterating.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A render state is the accumulator (and flam3's count channel, when the
// frame keeps one) as iteration left it, before the post-pass, with what a
// resumed render needs: the samples asked for and plotted over all runs (a
// resumed run iterates only what its quality asks beyond the first, and k2
// is scaled to the second),
// the bad values, the runs that iterated into it (each draws streams of its
// own, from a seed it records) and the frame's identity: a hash
// of its histogram's geometry and its packed parameters (camera, xform
// selection, palette, xforms). So whatever only the post-pass reads (gamma,
// brightness, vibrancy, background, highlight power, and the filter and
// estimator where they keep the histogram's size) may change between runs,
// and nothing that moves or colours a single point may.
//
// States of one frame rendered apart (other machines, other seeds) add up to
// one: read_render_states sums them, and refuses parts that share a run's
// streams, whose samples would count twice.
//
// File: a line "flamejit-render-state 3", a line of JSON (the values above
// and a CRC-32 of them and the data), then the histogram's floats,
// RGBA per cell and then the counts, in host byte order. Written to a
// temporary name and renamed. Format 2 (no run seeds) is read too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pipeline/prepared_frame.h"

namespace fj {

struct RenderState {
    std::string identity;       // frame_identity of the frame it holds
    int hist_width = 0, hist_height = 0;
    uint64_t requested = 0;     // samples asked for, over all runs
    uint64_t plotted = 0;       // samples plotted (backends plot whole rounds: a few more or less)
    uint64_t bad_values = 0;
    int runs = 0;               // renders that iterated into it
    // The seed of each run's streams, in order; shorter than runs for a
    // state that format 2 began, which recorded none.
    std::vector<uint64_t> streams;
    std::vector<float> rgba;    // hist_width × hist_height × 4
    std::vector<float> counts;  // hist_width × hist_height, or empty
};

// What a state must match to be resumed by `frame` rendered into `plan`
// (the frame's own plan, or a strip's: band_plan). Throws InputError for
// frames a state cannot hold: several passes or time samples, or a field.
std::string frame_identity(const PreparedFrame& frame, const FramePlan& plan);

void write_render_state(const std::string& path, const RenderState& state);
// Throws InputError naming the file when it is not a whole render state.
// Without `histogram`, only the header, and the file's length against it:
// no histogram read, no checksum.
RenderState read_render_state(const std::string& path, bool histogram = true);

// A frame rendered in strips keeps a state per strip in one folder:
// FOLDER/strip-K-of-N.fjstate, K from 1 to N.
std::string strip_state_path(const std::string& folder, int index, int count);
// N of the folder's strip states. Throws InputError naming the folder when it
// holds none, or not each strip of one count once.
int strip_state_count(const std::string& folder);

// Makes `folder` (in a folder that exists) ready for the states of `count`
// strips: strip states of another count in it, an earlier render's, go.
void prepare_strip_state_folder(const std::string& folder, int count);

// The states of `paths` summed into one (of one path, that state):
// histograms, samples, bad values, runs and their streams. Throws InputError
// naming the file that holds another frame than the first, shares a run's
// streams with one before it (the same seed, or resumed from one state), or,
// of several, does not record its runs' streams (format 2). Without
// `histograms`, the same from the headers (read_render_state).
RenderState read_render_states(const std::vector<std::string>& paths, bool histograms = true);

}  // namespace fj
