// flamejit — helpers shared by the test suites.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "fj_device.h"

namespace fj::test {

// Paths fixed at configure time, each overridden at run time by an
// environment variable when it is set (a bundle's env.sh sets them all):
std::string source_path(const std::string& rel);      // inside the project ($FJ_SOURCE_DIR)
std::string corpus_path(const std::string& rel);      // inside the artist corpus ($FJ_CORPUS_DIR)
std::string flam3_data_path(const std::string& rel);  // inside /usr/share/flam3 ($FJ_FLAM3_DATA_DIR)
std::string flamejit_binary();                        // $FJ_FLAMEJIT, else flamejit in $FJ_BINARY_DIR
// The variable's value when set and not empty, else `configured`.
std::string path_from_env(const char* variable, const std::string& configured);
// A fresh empty folder under $FJ_SCRATCH_DIR (default: test-scratch in the
// build tree), unique per call: TAG-PID-N.
std::string scratch_dir(const std::string& tag);
// At the end of a test executable (test_main.cpp): its scratch folders
// removed where every case `passed`, else kept for a look and named.
void end_scratch(bool passed);
bool file_exists(const std::string& path);
std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);

// An environment variable set for one scope (for this process's driver,
// compiler and kernel cache and for the commands it runs), then put back as
// it was, also when a check or an exception ends the case early.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> before_;
};

struct CommandResult {
    int status = -1;      // exit status, or -1 if it did not exit normally
    std::string output;   // stdout and stderr together
};
// Runs a shell command line and captures its output.
CommandResult run_command(const std::string& command);
// A path or argument in single quotes, for run_command (no quote inside).
std::string quoted(const std::string& s);

// flam3-render's image of `genome` written to `png`; `settings` are its
// environment words (isaac_seed=…, nthreads=…). Rendered once per genome
// text, settings and flam3-render build, in a folder of the scratch tree that
// suites share: the fidelity suite on the CPU backend and on the emulated GPU
// compare against the same references, at the same time under ctest -j (a
// second caller waits for the first's render). The result is the render's
// command result, or the cached one's success.
CommandResult flam3_render_shared(const std::string& genome, const std::string& png, const std::string& settings);

// Whether flam3-genome (flam3-render) is installed; fails the test case,
// saying how to install it, when not.
bool flam3_genome_present();
bool flam3_render_present();
// Whether the artist corpus (its folder `rel`) is there; fails the test case,
// naming where it was looked for, when not: the tests that read it are not
// to pass without it.
bool corpus_present(const std::string& rel = "");
// Whether NVRTC loads; fails the test case when not (the CUDA toolkit is a
// build dependency, so every machine that builds the tests has it).
bool nvrtc_present();
// Whether at least `devices` CUDA devices work (through the driver API).
// Where they do not, missing_devices says so.
bool cuda_devices_present(int devices = 1);
// A GPU suite's case that finds fewer than `devices` devices (`why`) skips,
// printing why; but where $FJ_REQUIRE_DEVICES says that many are there (the
// emulated entries set it: their stand-ins must load), it fails instead.
void missing_devices(const std::string& why, int devices = 1);
// The variation ids flam3-genome may pick as main variations (all but the
// pre-variations, which it never chooses), comma-separated for use_vars=.
std::string flam3_genome_variation_ids();

// Whether parameter alias `alias` of `variation` is another renderer's
// spelling (prefixed by one of its @also names, as Fractorium's Mobius_Re_A),
// which flam3 does not read.
bool other_renderers_alias(const std::string& variation, const std::string& alias);

// The <flame ...>...</flame> elements of a document's text, in order.
std::vector<std::string> flame_elements(const std::string& xml);
// Sets name="value" on the first <flame> tag of a genome's text, replacing
// the attribute if present (for genomes both flam3 and flamejit then read).
std::string set_flame_attribute(const std::string& xml, const std::string& name, const std::string& value);
// The first <flame> at `factor` of its size (framing kept: scale follows),
// the given quality and supersample 1: the same picture, cheap enough for CI.
std::string reduced_genome(const std::string& xml, double factor, double quality);

// The host build of variation `name` (the CPU backend's) at (x, y) after an
// identity pre-affine, from a sum of 0: what it adds, as x + iy. It sees the
// colour index 0.5, which a variation without @color must leave alone
// (checked here).
std::complex<double> host_variation(const char* name, float x, float y, float w, const std::vector<float>& p,
                                    Rng& rng);
// Whether `got` is within 1e-5 of `want`, relative to the larger of 1 and
// |want| (a small coordinate of a large point carries the large one's
// rounding), times `slack`.
bool near(std::complex<double> got, std::complex<double> want, double slack = 1);
// Whether a count out of n is within 5 standard deviations of n·prob.
bool frequency_ok(int count, int n, double prob);
// Values a genome may give any parameter, from 0 to ±3.4e38 (the reader
// takes every finite float), for checks that every variation comes back
// from every point whatever they make of it.
const std::vector<float>& extreme_parameter_values();
// The shader hash some of Fractorium's variations draw from, as their
// definition reads: the fraction of 43758.5453·sin(12.9898·a + 78.233·b +
// seed), the sine and its factor from fj::hash_sine (checked against sin in
// variations_test), the argument rounded step by step as the snippets form it.
double shader_hash(float a, float b, float seed);

// The switches in a specialized kernel's source when each is one of
// fj_apply_xform's over the xform index k (one per shape of its prologue,
// FJ_SHARED_PROLOGUE's two and the default's one), or -1 when any other is
// there (a dispatch over variations).
int xform_switches(const std::string& source);

}  // namespace fj::test
