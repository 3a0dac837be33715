#pragma once
// WaveModel with and without a decomposition on a furnished room (absorbing walls,
// boxes, cylinders and meshes, cut by the slabs): the receivers' histories must agree
// bit for bit. Shared by the CPU and the GPU suites.
#include <gtest/gtest.h>

#include <string>

#include "scene/scene_json.hpp"
#include "wave/wave_model.hpp"

namespace ws::test {

inline void expect_model_decomposition_matches(BackendChoice backend, const std::string& kernel,
                                               const DecompOptions& decomp, int steps) {
  const WaveScene scene = load_wave_scene(std::string(WS_SOURCE_DIR) + "/assets/scenes/furnished_room.json");
  WaveModel one(scene, backend, kernel);
  WaveModel many(scene, backend, kernel, decomp);
  EXPECT_NE(many.backend_note().find("z-slab decomposition"), std::string::npos) << many.backend_note();
  one.advance(steps);
  many.advance(steps);
  const auto &a = one.receiver_history(), &b = many.receiver_history();
  ASSERT_EQ(a.size(), b.size());
  double peak = 0.0;
  for (size_t r = 0; r < a.size(); ++r) {
    EXPECT_EQ(a[r], b[r]) << "receiver " << r;
    for (double v : a[r]) peak = std::max(peak, std::fabs(v));
  }
  EXPECT_GT(peak, 0.0) << "the receivers must hear the source";
  EXPECT_EQ(one.step(), many.step());
}

}  // namespace ws::test
