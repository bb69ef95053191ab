// SPDX-License-Identifier: GPL-3.0-or-later
// doctest's main, then the run's scratch folders removed when every case
// passed (a suite's renders, kernel caches and genomes would otherwise pile
// up in the build tree, run after run).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "test_support.h"

int main(int argc, char** argv) {
    doctest::Context context(argc, argv);
    const int failed = context.run();
    fj::test::end_scratch(failed == 0);
    return failed;
}
