#include "cli/ctpn_plot.hpp"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "atomic_file.hpp"
#include "cli/tiny_font.hpp"

namespace ws::cli {

namespace {

struct Rgb {
  unsigned char r, g, b;
};

class Canvas {
 public:
  Canvas(int w, int h) : w_(w), h_(h), px_((size_t)w * h * 3, 255) {}
  int width() const { return w_; }
  int height() const { return h_; }

  void set(int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= w_ || y >= h_) return;
    unsigned char* p = &px_[((size_t)y * w_ + x) * 3];
    p[0] = c.r, p[1] = c.g, p[2] = c.b;
  }
  void rect(int x0, int y0, int x1, int y1, Rgb c) {
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) set(x, y, c);
  }
  // Bresenham with a 2-pixel pen; `dash` > 0 leaves gaps of dash pixels every 2*dash.
  void line(int x0, int y0, int x1, int y1, Rgb c, int dash = 0) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int err = dx + dy, n = 0;
    for (;;) {
      if (dash == 0 || (n / dash) % 2 == 0) rect(x0, y0, x0 + 1, y0 + 1, c);
      ++n;
      if (x0 == x1 && y0 == y1) break;
      const int e2 = 2 * err;
      if (e2 >= dy) err += dy, x0 += sx;
      if (e2 <= dx) err += dx, y0 += sy;
    }
  }
  // Text in the 3x5 font, `scale` pixels per font pixel, 1 font pixel between glyphs.
  void text(int x, int y, const std::string& s, Rgb c, int scale = 2) {
    for (char ch : s) {
      if (const char* g = tiny_glyph(ch))
        for (int r = 0; r < 5; ++r)
          for (int q = 0; q < 3; ++q)
            if (g[r * 3 + q] == '#') rect(x + q * scale, y + r * scale, x + q * scale + scale - 1, y + r * scale + scale - 1, c);
      x += 4 * scale;
    }
  }
  static int text_width(const std::string& s, int scale = 2) { return (int)s.size() * 4 * scale - scale; }

  // All or nothing (util/atomic_file.hpp): a failed write leaves no truncated PNG.
  void save(const std::string& path) const {
    util::write_atomically_via_path(path, "PNG file", [&](const std::string& temp) { save_to(temp, path); });
  }

 private:
  // Writes the image to `file`; messages name `path`, the file the user asked for.
  void save_to(const std::string& file, const std::string& path) const {
    std::FILE* f = std::fopen(file.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write PNG file '" + path + "'");
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> guard(f, std::fclose);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info) {
      png_destroy_write_struct(&png, &info);
      throw std::runtime_error("libpng could not start writing '" + path + "'");
    }
    if (setjmp(png_jmpbuf(png))) {
      png_destroy_write_struct(&png, &info);
      throw std::runtime_error("libpng failed writing '" + path + "'");
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, w_, h_, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < h_; ++y) png_write_row(png, const_cast<png_bytep>(&px_[(size_t)y * w_ * 3]));
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    if (std::fflush(f) != 0 || std::ferror(f)) throw std::runtime_error("cannot write PNG file '" + path + "'");
  }

  int w_, h_;
  std::vector<unsigned char> px_;
};

// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `n` ticks over [0, span].
double nice_step(double span, int n) {
  const double raw = span / n, p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

std::string tick_label(double v, double step) {
  std::ostringstream os;
  const int decimals = step >= 1 ? 0 : (int)std::ceil(-std::log10(step) - 1e-9);
  os.precision(decimals);
  os << std::fixed << v;
  return os.str();
}

Rgb family_colour(const std::string& f) {
  if (f == "leggy") return {31, 119, 180};
  if (f == "compact") return {214, 39, 40};
  if (f == "box") return {44, 160, 44};
  return {148, 103, 189};
}

}  // namespace

void write_ctpn_plot_png(const std::string& path, const bench::StencilBenchResult& result, const std::string& size) {
  // One series per (family, precision): the best kernel's CTPN at each K.
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<int, double>>> series;
  double max_k = 0, max_ctpn = 0;
  for (const auto& r : result.rows) {
    if (!r.best || r.size != size) continue;
    series[{r.family, r.precision}].push_back({r.points, r.ctpn_ns});
    max_k = std::max(max_k, (double)r.points);
    max_ctpn = std::max(max_ctpn, r.ctpn_ns);
  }
  if (series.empty()) throw std::runtime_error("no results on the " + size + " grid to plot");

  Canvas c(1000, 640);
  const int left = 90, right = 760, top = 50, bottom = 570;  // plot area; the legend sits right of it
  const Rgb black{0, 0, 0}, grey{220, 220, 220};
  const double xstep = nice_step(max_k, 8), ystep = nice_step(max_ctpn, 8);
  const double xmax = std::ceil(max_k / xstep) * xstep, ymax = std::ceil(max_ctpn * 1.02 / ystep) * ystep;
  auto px = [&](double k) { return left + (int)std::lround((right - left) * k / xmax); };
  auto py = [&](double t) { return bottom - (int)std::lround((bottom - top) * t / ymax); };

  for (double v = 0; v <= xmax + 1e-9; v += xstep) {  // x ticks and grid
    const int x = px(v);
    c.line(x, top, x, bottom, grey);
    c.line(x, bottom, x, bottom + 6, black);
    const std::string s = tick_label(v, xstep);
    c.text(x - Canvas::text_width(s) / 2, bottom + 12, s, black);
  }
  for (double v = 0; v <= ymax + 1e-12; v += ystep) {  // y ticks and grid
    const int y = py(v);
    c.line(left, y, right, y, grey);
    c.line(left - 6, y, left, y, black);
    const std::string s = tick_label(v, ystep);
    c.text(left - 10 - Canvas::text_width(s), y - 5, s, black);
  }
  c.line(left, top, left, bottom, black);
  c.line(left, bottom, right, bottom, black);
  c.text(left + (right - left) / 2 - Canvas::text_width("STENCIL POINTS K") / 2, bottom + 40, "STENCIL POINTS K", black);
  c.text(10, top - 30, "CTPN (NS)", black);
  const std::string title = "COMPUTE TIME PER NODE, BEST KERNEL, " + size + " GRID - " + result.device;
  c.text(left + 80, 14, title, black);

  int ly = top + 10;
  for (auto& [key, pts] : series) {
    std::sort(pts.begin(), pts.end());
    const Rgb col = family_colour(key.first);
    const int dash = key.second == "double" ? 6 : 0;
    for (size_t n = 0; n < pts.size(); ++n) {
      const int x = px(pts[n].first), y = py(pts[n].second);
      c.rect(x - 3, y - 3, x + 3, y + 3, col);
      if (n > 0) c.line(px(pts[n - 1].first), py(pts[n - 1].second), x, y, col, dash);
    }
    c.line(right + 20, ly + 4, right + 60, ly + 4, col, dash);
    c.rect(right + 37, ly + 1, right + 43, ly + 7, col);
    c.text(right + 70, ly, key.first + " " + key.second, black);
    ly += 22;
  }
  c.text(right + 20, ly + 10, "SOLID FLOAT", black);
  c.text(right + 20, ly + 26, "DASHED DOUBLE", black);
  c.save(path);
}

}  // namespace ws::cli
