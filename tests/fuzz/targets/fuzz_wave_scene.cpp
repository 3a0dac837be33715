// libFuzzer: a wave scene file as the GUI, `run` and `render` read it: JSON
// text, then the strict scene parser, then the grid derived from it. Refusals
// are SceneError (what the CLI reports with status 2); anything else that
// escapes, a crash, a leak or undefined behaviour is a finding.
#include <cstddef>
#include <cstdint>

#include "scene/scene_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;  // not JSON: load_json_file refuses it with the parser's message
  try {
    // Relative mesh paths resolve against the project's scenes, so the seeds'
    // "../meshes/chair.obj" is read and checked as in the furnished room.
    const ws::WaveScene scene = ws::parse_wave_scene(j, WS_FUZZ_SCENE_DIR);
    const ws::DerivedGrid g = ws::derive_grid(scene);
    (void)g.points();
    (void)ws::to_json(scene);
  } catch (const ws::SceneError&) {
  }
  return 0;
}
