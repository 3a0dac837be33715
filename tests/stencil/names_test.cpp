// Stencil names: every family member is accepted under its canonical name, bad names and
// malformed parameters are refused with the valid forms in the message.
#include <gtest/gtest.h>

#include "stencil/families.hpp"

namespace ws {
namespace {

std::string refusal(const std::string& name) {
  try {
    make_stencil(name);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Names, CanonicalNamesRoundTrip) {
  for (auto f : {StencilFamily::Leggy, StencilFamily::Compact, StencilFamily::Box, StencilFamily::Named27})
    for (const auto& n : family_member_names(f, 20)) {
      const Stencil s = make_stencil(n);
      EXPECT_EQ(s.name, n);
      EXPECT_EQ(s.family, f) << n;
      EXPECT_GT(s.courant_max, 0.0) << n;
    }
  EXPECT_EQ(make_stencil("7pt").name, "leggy:1");
}

TEST(Names, BadNamesAreRefusedWithTheValidForms) {
  for (const std::string bad : {"leggy:0", "leggy:9", "leggy:x", "leggy:", "leggy:-1", "leggy:1.5", "compact:7",
                                "compact:0", "compact:15", "compact:23", "compact:24", "compact:", "compact:3x",
                                "box:1,2", "box:1,2,0", "box:2,2,2,2", "box:a,b,c", "box:0,0,0", "box:5,0,0",
                                "box:1,,0", "box:", "foo", "", "SRL", "27pt"}) {
    const std::string msg = refusal(bad);
    ASSERT_FALSE(msg.empty()) << "'" << bad << "' was accepted";
    EXPECT_NE(msg.find("leggy:M"), std::string::npos) << msg;
    EXPECT_NE(msg.find("compact:R"), std::string::npos) << msg;
    EXPECT_NE(msg.find("box:q1,q2,q3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("iwb"), std::string::npos) << msg;
  }
}

TEST(Names, RefusalsSayWhy) {
  EXPECT_NE(refusal("compact:7").find("adds no shell"), std::string::npos);
  EXPECT_NE(refusal("compact:24").find("more than 461"), std::string::npos);
  EXPECT_NE(refusal("box:1,2,0").find("not in Q"), std::string::npos);
  EXPECT_NE(refusal("box:1,2").find("three whole numbers"), std::string::npos);
  EXPECT_NE(refusal("leggy:9").find("outside 1..8"), std::string::npos);
  EXPECT_NE(refusal("foo").find("unknown stencil 'foo'"), std::string::npos);
}

}  // namespace
}  // namespace ws
