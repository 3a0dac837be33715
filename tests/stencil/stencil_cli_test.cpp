// `wavescope stencil list|info` as a user meets it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct Result {
  int status;
  std::string output;
};

Result sh(const std::string& args, bool with_stderr = true) {
  const std::string cmd = std::string(WS_BINARY_DIR) + "/wavescope " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

TEST(StencilCli, ListHasThePaperCounts) {
  const Result r = sh("stencil list --json", false);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  ASSERT_EQ(j.at("compact").size(), 20u);
  ASSERT_EQ(j.at("box").size(), 20u);
  ASSERT_EQ(j.at("leggy").size(), 8u);
  EXPECT_EQ(j["compact"][0]["points"], 7);
  EXPECT_EQ(j["compact"][1]["points"], 19);
  EXPECT_EQ(j["compact"][2]["points"], 27);
  EXPECT_EQ(j["compact"][19]["name"], "compact:22");
  EXPECT_EQ(j["compact"][19]["points"], 461);
  EXPECT_EQ(j["box"][8]["name"], "box:2,2,2");
  EXPECT_EQ(j["box"][8]["points"], 125);
  const Result t = sh("stencil list");
  ASSERT_EQ(t.status, 0);
  EXPECT_NE(t.output.find("compact:22"), std::string::npos);
  EXPECT_NE(t.output.find("461"), std::string::npos);
}

TEST(StencilCli, InfoJson) {
  const Result r = sh("stencil info srl --json", false);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j.at("points"), 7);
  EXPECT_NEAR(j.at("courant_max").get<double>(), 1 / std::sqrt(3.0), 1e-12);
  EXPECT_EQ(j.at("weights").size(), 2u);  // centre -6 and axis 1
  ASSERT_EQ(j.at("dispersion").size(), 6u);
  for (const auto& d : j["dispersion"]) {
    EXPECT_TRUE(d.contains("direction") && d.contains("kX") && d.contains("v_over_c"));
    EXPECT_GT(d["v_over_c"].get<double>(), 0.9);
    EXPECT_LE(d["v_over_c"].get<double>(), 1.0 + 1e-12);
  }
  EXPECT_EQ(sh("stencil info compact:22").status, 0);
}

TEST(StencilCli, BadNamesExitTwoWithTheValidForms) {
  for (const std::string bad : {"leggy:0", "compact:7", "box:1,2", "nonsense"}) {
    const Result r = sh("stencil info " + bad);
    EXPECT_EQ(r.status, 2) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("leggy:M"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("box:q1,q2,q3"), std::string::npos) << r.output;
  }
}

}  // namespace
