// Opening a mesh file: size checks before reading, then the format's reader.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "geometry/mesh.hpp"

namespace ws::geo {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  return s;
}

std::string mib(std::uint64_t bytes) {
  std::ostringstream os;
  os.precision(4);
  os << bytes / 1048576.0 << " MiB";
  return os.str();
}

}  // namespace

Mesh read_mesh_file(const std::string& path, const MeshLimits& limits) {
  const std::string ext = lower(fs::path(path).extension().string());
  if (ext != ".obj" && ext != ".stl")
    throw MeshError("mesh file '" + path + "': unknown format '" + ext + "'; allowed: .obj, .stl");
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw MeshError("mesh file '" + path + "' does not exist or is not a file");
  // The size decides before a byte is read: a file far larger than memory
  // must be refused, not half-read until the allocator gives up.
  const std::uint64_t size = fs::file_size(path, ec);
  if (ec) throw MeshError("mesh file '" + path + "': cannot read its size: " + ec.message());
  if (size == 0) throw MeshError("mesh file '" + path + "' is empty (0 bytes)");
  if (size > limits.max_file_bytes)
    throw MeshError("mesh file '" + path + "' is " + std::to_string(size) + " bytes (" + mib(size) +
                    "), more than the limit of " + std::to_string(limits.max_file_bytes) + " bytes (" +
                    mib(limits.max_file_bytes) + "); refusing to read it");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MeshError("cannot open mesh file '" + path + "'");
  std::string bytes(size, '\0');
  in.read(bytes.data(), (std::streamsize)size);
  if ((std::uint64_t)in.gcount() != size)
    throw MeshError("mesh file '" + path + "': read " + std::to_string(in.gcount()) + " of " +
                    std::to_string(size) + " bytes");
  return ext == ".obj" ? parse_obj(bytes, path, limits) : parse_stl(bytes, path, limits);
}

}  // namespace ws::geo
