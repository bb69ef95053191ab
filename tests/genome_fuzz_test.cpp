// flamejit — odd and broken genomes through `flamejit render` and `animate`: an
// image or one clear error, never a crash, a hang, a long complaint or a half-written file.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Genomes artists and the project wrote (the bundled one, the benchmark set,
// the corpus's flam3 and Fractorium files, cuburn nodes) with a few values
// each replaced by extreme or malformed ones, elements doubled, removed or
// added, or the text cut short. The mutations come from a fixed seed, so a
// failure repeats; its genome is kept in the scratch folder and named.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "test_support.h"

using fj::test::quoted;
using fj::test::run_command;

namespace {

// Values a number attribute may be given: extremes a reader must take or
// refuse cleanly, and text that is no number at all. A spatial filter of
// radius 255 or 256 costs its width squared per pixel, as flam3's does; the
// tiny images below keep that to seconds.
const char* const kValues[] = {"nan",  "inf",    "-inf", "1e38",   "-1e38",      "3.5e38", "0",     "-0",   "1e-38",
                               "",     "abc",    "1e30", "-1e30",  "2147483648", "-2147483649", "99999999999",
                               "1 2 3", "-1",    "1e10", "-1e10",  "0x10",       "5e-324", "+3",    ".5",   "5.",
                               "7",    "-3",     "0.5",  "1e-20",  "12345.678",  "   7   ", "255",  "256",  "-256"};

struct Attribute {
    size_t begin, value_begin, value_end;  // name start, value between the quotes
};

// Every name="value" of an XML text, found by its =" (the corpus's
// attribute values hold no quotes).
std::vector<Attribute> attributes(const std::string& xml) {
    std::vector<Attribute> found;
    for (size_t at = xml.find("=\""); at != std::string::npos; at = xml.find("=\"", at + 2)) {
        size_t begin = at;
        while (begin > 0 && (std::isalnum(static_cast<unsigned char>(xml[begin - 1])) || xml[begin - 1] == '_' ||
                             xml[begin - 1] == '-' || xml[begin - 1] == ':'))
            --begin;
        const size_t end = xml.find('"', at + 2);
        if (begin == at || end == std::string::npos) continue;
        found.push_back({begin, at + 2, end});
    }
    return found;
}

std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

class Mutator {
public:
    explicit Mutator(uint64_t seed) : rng_(seed) {}

    size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    template <typename T, size_t N>
    const T& pick(const T (&items)[N]) { return items[below(N)]; }

    // One to four attribute changes, and now and then a change of structure.
    std::string mutate_xml(std::string xml) {
        const int changes = 1 + static_cast<int>(below(4));
        for (int n = 0; n < changes; ++n) {
            const std::vector<Attribute> all = attributes(xml);
            if (all.empty()) break;
            const Attribute a = all[below(all.size())];
            const std::string value = xml.substr(a.value_begin, a.value_end - a.value_begin);
            std::vector<std::string> parts = words(value);
            std::string changed;
            if (parts.size() > 1 && chance(0.7)) {
                // One number of several (coefs, rgb, size, chaos...).
                parts[below(parts.size())] = pick(kValues);
                for (const std::string& p : parts) changed += (changed.empty() ? "" : " ") + p;
            } else if (chance(0.15)) {
                xml.erase(a.begin, a.value_end + 1 - a.begin);
                continue;
            } else {
                changed = pick(kValues);
            }
            xml.replace(a.value_begin, a.value_end - a.value_begin, changed);
        }
        const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
        if (r < 0.05) {
            xml.resize(below(xml.size()));
        } else if (r < 0.15) {
            // An xform doubled or gone.
            const size_t begin = xml.find("<xform", below(xml.size()));
            const size_t end = begin == std::string::npos ? begin : xml.find("/>", begin);
            if (end != std::string::npos) {
                const std::string element = xml.substr(begin, end + 2 - begin);
                if (chance(0.5))
                    xml.insert(end + 2, element);
                else
                    xml.erase(begin, end + 2 - begin);
            }
        } else if (r < 0.25) {
            const std::string added[] = {
                std::string("<symmetry kind=\"") + pick(kValues) + "\"/>",
                std::string("<finalxform color=\"") + pick(kValues) + "\" linear=\"1\" spherical=\"" + pick(kValues) +
                    "\" coefs=\"1 0 0 1 0 0\"/>",
                std::string("<color index=\"") + pick(kValues) + "\" rgb=\"" + pick(kValues) + " 0 0\"/>",
                std::string("<palette count=\"") + pick(kValues) + "\" format=\"RGB\">FF0000</palette>",
                std::string("<xform weight=\"") + pick(kValues) + "\" chaos=\"" + pick(kValues) +
                    " 1\" linear=\"1\" coefs=\"1 0 0 1 0 0\"/>"};
            const size_t end = xml.rfind("</flame>");
            if (end != std::string::npos) xml.insert(end, pick(added));
        }
        return xml;
    }

    // A value somewhere in a cuburn node replaced, removed or scaled.
    void mutate_json(nlohmann::json& j, int depth = 0) {
        static const nlohmann::json odd[] = {nullptr, true, "x", "", nlohmann::json::array(), nlohmann::json::object(),
                                             nlohmann::json::array({1, 2}), 1e308, -1e308, 0, -1, 5e-324,
                                             9223372036854775807LL, 0.5, 1e10};
        if (j.is_object() && !j.empty()) {
            auto it = j.begin();
            std::advance(it, below(j.size()));
            if (chance(0.15))
                j.erase(it);
            else if (chance(0.4) || depth > 6)
                *it = pick(odd);
            else
                mutate_json(*it, depth + 1);
        } else if (j.is_array() && !j.empty()) {
            nlohmann::json& item = j[below(j.size())];
            if (chance(0.5))
                item = pick(odd);
            else
                mutate_json(item, depth + 1);
        } else if (j.is_number()) {
            const double factors[] = {1e6, -1, 1e-6, 0, 1e300};
            j = j.get<double>() * pick(factors);
        } else {
            j = pick(odd);
        }
    }

private:
    std::mt19937_64 rng_;
};

std::vector<std::string> files_in(const std::string& folder, const std::string& extension) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(folder))
        if (e.path().extension() == extension) out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

int count_of(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

struct Outcome {
    int rendered = 0, refused = 0;
};

// Renders `genome` small on the CPU and checks the command line's contract.
void check_render(const std::string& genome, const std::string& options, const std::string& out, Outcome& outcome) {
    // A hang shows as status 124.
    const auto r = run_command("timeout 120 " + quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                               quoted(out) + " --backend cpu --threads 1 --seed 1 --drop-unknown " + options +
                               " < /dev/null");
    int complaint = 0;  // lines other than warnings
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) complaint += !line.empty() && line.rfind("warning:", 0) != 0;
    const bool exists = fj::test::file_exists(out);
    const bool kept = r.status == 0 ? exists : r.status == 2 && !exists && complaint == 1;
    CHECK_MESSAGE(kept, genome << " (" << options << "): exit " << r.status << ", image " << (exists ? "written" : "absent")
                               << ":\n" << r.output);
    if (!kept) return;  // the genome stays for a rerun
    (r.status == 0 ? outcome.rendered : outcome.refused) += 1;
    std::filesystem::remove(genome);
    std::filesystem::remove(out);
}

}  // namespace

TEST_CASE("fuzz: mutated flam3 genomes render or fail with one clear line") {
    std::vector<std::string> sources = {fj::test::source_path("genomes/default.flam3")};
    for (const auto& f : files_in(fj::test::source_path("benchmarks/genomes"), ".flam3")) sources.push_back(f);
    for (const auto& f : files_in(fj::test::corpus_path("electric-sheep"), ".flam3")) sources.push_back(f);
    for (const auto& f : files_in(fj::test::corpus_path("fractorium-examples"), ".flame")) sources.push_back(f);
    const std::string dir = fj::test::scratch_dir("fuzz-flam3");
    const char* const sizes[] = {"0.02", "0.05"};
    const char* const extras[] = {"", "--earlyclip", "--transparent", "--bits 16", "--shuffle divergent", "--strips 3"};
    Mutator mutate(20261125);
    Outcome outcome;
    const int cases = 600;
    for (int n = 0; n < cases; ++n) {
        const std::string text = fj::test::read_file(sources[mutate.below(sources.size())]);
        const int flames = std::max(1, count_of(text, "<flame "));
        const std::string genome = dir + "/case" + std::to_string(n) + ".flam3";
        fj::test::write_file(genome, mutate.mutate_xml(text));
        check_render(genome,
                     "--flame " + std::to_string(mutate.below(flames)) + " --size-scale " + mutate.pick(sizes) +
                         " --quality 1 " + mutate.pick(extras),
                     dir + "/case" + std::to_string(n) + ".png", outcome);
    }
    MESSAGE(outcome.rendered << " rendered, " << outcome.refused << " refused of " << cases);
    // Neither all refused by some early check nor all waved through.
    CHECK(outcome.rendered >= cases / 5);
    CHECK(outcome.refused >= cases / 5);
}

TEST_CASE("fuzz: mutated cuburn nodes and profiles render or fail with one clear line") {
    // The nodes' folder copied, so that a mutant finds the node it is based on.
    const std::string dir = fj::test::scratch_dir("fuzz-cuburn");
    std::filesystem::create_directories(dir + "/nodes");
    std::vector<nlohmann::json> nodes, profiles;
    for (const auto& f : files_in(fj::test::corpus_path("cuburn-flock/nodes"), ".json")) {
        std::filesystem::copy_file(f, dir + "/nodes/" + std::filesystem::path(f).filename().string(),
                                   std::filesystem::copy_options::overwrite_existing);
        nodes.push_back(nlohmann::json::parse(fj::test::read_file(f)));
    }
    for (const auto& f : files_in(fj::test::corpus_path("cuburn-flock/profiles"), ".json"))
        profiles.push_back(nlohmann::json::parse(fj::test::read_file(f)));
    Mutator mutate(1125);
    Outcome outcome;
    const int cases = 200;
    for (int n = 0; n < cases; ++n) {
        nlohmann::json node = nodes[mutate.below(nodes.size())], profile = profiles[mutate.below(profiles.size())];
        mutate.mutate_json(mutate.chance(0.8) ? node : profile);
        if (mutate.chance(0.5)) mutate.mutate_json(node);
        const std::string tag = dir + "/nodes/case" + std::to_string(n);
        fj::test::write_file(tag + ".json", node.dump());
        fj::test::write_file(tag + ".profile", profile.dump());
        check_render(tag + ".json", "--profile " + quoted(tag + ".profile") + " --size-scale 0.03 --quality 1", tag + ".png",
                     outcome);
        if (!fj::test::file_exists(tag + ".json")) std::filesystem::remove(tag + ".profile");
    }
    MESSAGE(outcome.rendered << " rendered, " << outcome.refused << " refused of " << cases);
    CHECK(outcome.rendered >= cases / 10);
    CHECK(outcome.refused >= cases / 5);
}

TEST_CASE("fuzz: sequences with a mutated keyframe animate or fail with one clear line") {
    std::vector<std::string> sources = {fj::test::source_path("genomes/default.flam3")};
    for (const auto& f : files_in(fj::test::source_path("benchmarks/genomes"), ".flam3")) sources.push_back(f);
    for (const auto& f : files_in(fj::test::corpus_path("electric-sheep"), ".flam3")) sources.push_back(f);
    const std::string dir = fj::test::scratch_dir("fuzz-animate");
    // A source's first flame at a time: interpolation then meets the
    // mutation (log-polar affines, palettes, padding, motion blur).
    auto keyframe = [&](const std::string& path, const char* time) {
        const std::string text = fj::test::read_file(path);
        const size_t begin = text.find("<flame "), end = text.find("</flame>", begin);
        std::string flame = text.substr(begin + 7, end + 8 - begin - 7);
        // Its own time, if any, gives way.
        const size_t own = flame.find(" time=\"");
        if (own != std::string::npos && own < flame.find('>')) flame.erase(own, flame.find('"', own + 7) + 1 - own);
        return "<flame time=\"" + std::string(time) + "\" " + flame;
    };
    const char* const ranges[] = {"0:3", "1:2", "0:4:2"};
    const char* const temporal[] = {"1", "3"};
    Mutator mutate(2511);
    Outcome outcome;
    const int cases = 150;
    for (int n = 0; n < cases; ++n) {
        std::string first = keyframe(sources[mutate.below(sources.size())], "0");
        std::string second = keyframe(sources[mutate.below(sources.size())], "4");
        std::string& changed = mutate.chance(0.5) ? first : second;
        changed = mutate.mutate_xml(changed);
        const std::string sequence = dir + "/case" + std::to_string(n) + ".flam3";
        fj::test::write_file(sequence, "<flames>" + first + second + "</flames>");
        const std::string pattern = dir + "/case" + std::to_string(n) + "_%d.png";
        const auto r = run_command("timeout 120 " + quoted(fj::test::flamejit_binary()) + " animate " + quoted(sequence) +
                                   " --frames " + mutate.pick(ranges) + " -o " + quoted(pattern) +
                                   " --backend cpu --threads 1 --seed 1 --size-scale 0.03 --quality 1 --temporal-samples " +
                                   mutate.pick(temporal) + " < /dev/null");
        // Frames already written stay (each is whole); what is said about
        // the failure is one clear line.
        int complaint = 0;
        std::istringstream lines(r.output);
        for (std::string line; std::getline(lines, line);)
            complaint += !line.empty() && line.rfind("warning:", 0) != 0 && line.rfind("frame ", 0) != 0 &&
                         line.find(" keyframes, ") == std::string::npos && line.find(": warning: ") == std::string::npos;
        const bool kept = r.status == 0 || (r.status == 2 && complaint == 1);
        CHECK_MESSAGE(kept, sequence << ": exit " << r.status << ":\n" << r.output);
        if (!kept) continue;
        (r.status == 0 ? outcome.rendered : outcome.refused) += 1;
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            const std::string name = e.path().filename().string();
            CHECK_MESSAGE(name.front() != '.', "a temporary was left: " << name);
            if (name.rfind("case" + std::to_string(n) + "_", 0) == 0) std::filesystem::remove(e.path());
        }
        std::filesystem::remove(sequence);
    }
    MESSAGE(outcome.rendered << " animated, " << outcome.refused << " refused of " << cases);
    CHECK(outcome.rendered >= cases / 10);
    CHECK(outcome.refused >= cases / 5);
}

