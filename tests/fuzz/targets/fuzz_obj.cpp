// libFuzzer: an OBJ mesh as a scene's obstacle reads it: the reader, then the
// checks before voxelising (welding, edge counts, orientation, volume).
// Refusals are MeshError; anything else that escapes, a crash, a leak or
// undefined behaviour is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "geometry/mesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    ws::geo::Mesh m = ws::geo::parse_obj(std::string((const char*)data, size), "fuzz.obj");
    (void)ws::geo::analyse_mesh(m);
    (void)ws::geo::orient_and_check(m);
  } catch (const ws::geo::MeshError&) {
  }
  return 0;
}
