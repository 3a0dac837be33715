// libFuzzer: a sediment scene file: JSON text, the strict parser, then the
// initial state it sets up for grids small enough to build here. Refusals are
// SceneError; anything else that escapes, a crash, a leak or undefined
// behaviour is a finding.
#include <cstddef>
#include <cstdint>

#include "scene/scene_json.hpp"
#include "sediment/sediment_scene.hpp"
#include "sediment/sediment_setup.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;
  try {
    const ws::SedimentScene scene = ws::parse_sediment_scene(j);
    (void)ws::to_json(scene);
    if ((long long)scene.nx * scene.ny <= 64 * 64) (void)ws::build_initial_state(scene);
  } catch (const ws::SceneError&) {
  }
  return 0;
}
