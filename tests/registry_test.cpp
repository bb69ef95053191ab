// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include "codegen/variation_registry.h"
#include "cpu/variation_table.h"

TEST_CASE("registry: every embedded variation has a host function") {
    const auto& reg = fj::VariationRegistry::standard();
    REQUIRE(!reg.all().empty());
    for (const auto& v : reg.all()) CHECK_MESSAGE(fj::cpu::find_variation(v.name), v.name);
    CHECK(reg.all().size() == static_cast<size_t>(fj::cpu::variation_count()));
}
