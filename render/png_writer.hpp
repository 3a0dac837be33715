#pragma once
// PNG files through libpng: 8-bit RGBA, rows top first.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ws::render {

// Throws std::runtime_error naming the path when the file cannot be written.
// `text` pairs become tEXt chunks (e.g. the colour range, the step).
void write_png_rgba(const std::string& path, int width_px, int height_px, const std::vector<uint8_t>& rgba,
                    const std::vector<std::pair<std::string, std::string>>& text = {});

struct PngImage {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // top row first
};
// Reads any PNG as 8-bit RGBA (used by the tests).
PngImage read_png_rgba(const std::string& path);

}  // namespace ws::render
