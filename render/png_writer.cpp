#include "png_writer.hpp"

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "atomic_file.hpp"

namespace ws::render {

namespace {
struct FileCloser {
  void operator()(FILE* f) const { if (f) fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

// libpng's error callback: keeps its message (and the failing call's errno)
// for the exception instead of printing it, then unwinds to the setjmp.
void keep_png_error(png_structp png, png_const_charp message) {
  const int err = errno;
  if (auto* text = static_cast<std::string*>(png_get_error_ptr(png)))
    *text = std::string(message) + (err ? std::string(" (") + std::strerror(err) + ")" : "");
  png_longjmp(png, 1);
}

// Writes the image to `file`; messages name `path`, the file the user asked for.
void write_png_to(const std::string& file, const std::string& path, int w, int h, const std::vector<uint8_t>& rgba,
                  const std::vector<std::pair<std::string, std::string>>& text) {
  File f(fopen(file.c_str(), "wb"));
  if (!f) throw std::runtime_error("cannot open '" + path + "' for writing: " + std::strerror(errno));
  std::string png_message;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &png_message, keep_png_error, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    throw std::runtime_error("libpng: out of memory writing '" + path + "'");
  }
  std::vector<png_text> chunks(text.size());
  for (size_t t = 0; t < text.size(); ++t) {
    chunks[t].compression = PNG_TEXT_COMPRESSION_NONE;
    chunks[t].key = const_cast<char*>(text[t].first.c_str());
    chunks[t].text = const_cast<char*>(text[t].second.c_str());
  }
  // libpng reports errors by longjmp; nothing with a destructor is created after this point.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("cannot write PNG file '" + path + "': libpng: " + png_message);
  }
  png_init_io(png, f.get());
  png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  if (!chunks.empty()) png_set_text(png, info, chunks.data(), (int)chunks.size());
  png_write_info(png, info);
  for (int y = 0; y < h; ++y) png_write_row(png, const_cast<png_bytep>(&rgba[(size_t)y * w * 4]));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  // fclose writes what stdio still buffers: a full disk may show only here.
  if (std::fflush(f.get()) != 0 || std::ferror(f.get()))
    throw std::runtime_error("cannot write PNG file '" + path + "': " + std::strerror(errno));
}
}  // namespace

void write_png_rgba(const std::string& path, int w, int h, const std::vector<uint8_t>& rgba,
                    const std::vector<std::pair<std::string, std::string>>& text) {
  if ((size_t)w * h * 4 != rgba.size())
    throw std::invalid_argument("write_png_rgba: " + std::to_string(rgba.size()) + " bytes for " +
                                std::to_string(w) + "x" + std::to_string(h) + " RGBA pixels");
  // All or nothing (util/atomic_file.hpp): a failed write leaves no truncated PNG.
  util::write_atomically_via_path(path, "PNG file", [&](const std::string& temp) {
    write_png_to(temp, path, w, h, rgba, text);
  });
}

PngImage read_png_rgba(const std::string& path) {
  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&img, path.c_str()))
    throw std::runtime_error("cannot read PNG '" + path + "': " + img.message);
  img.format = PNG_FORMAT_RGBA;
  PngImage out;
  out.width = (int)img.width;
  out.height = (int)img.height;
  out.rgba.resize(PNG_IMAGE_SIZE(img));
  if (!png_image_finish_read(&img, nullptr, out.rgba.data(), 0, nullptr)) {
    const std::string msg = img.message;
    png_image_free(&img);
    throw std::runtime_error("cannot decode PNG '" + path + "': " + msg);
  }
  return out;
}

}  // namespace ws::render
