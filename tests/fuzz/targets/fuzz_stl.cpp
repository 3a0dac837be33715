// libFuzzer: an STL mesh, ASCII or binary (the reader decides by content), and
// the checks before voxelising. Refusals are MeshError; anything else that
// escapes, a crash, a leak or undefined behaviour is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "geometry/mesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    ws::geo::Mesh m = ws::geo::parse_stl(std::string((const char*)data, size), "fuzz.stl");
    (void)ws::geo::analyse_mesh(m);
    (void)ws::geo::orient_and_check(m);
  } catch (const ws::geo::MeshError&) {
  }
  return 0;
}
