#include "view_renderer.hpp"

#include <glm/gtc/matrix_transform.hpp>

#include <cstdio>

#include "bitmap_font.hpp"
#include "obstacle_mesh.hpp"
#include "shader_library.hpp"

namespace ws::render {

namespace {

// The 12 edges of the box [0, e] as 24 line endpoints.
std::vector<glm::vec3> box_edges(const glm::vec3& e) {
  std::vector<glm::vec3> p;
  const glm::vec3 c[8] = {{0, 0, 0}, {e.x, 0, 0}, {e.x, e.y, 0}, {0, e.y, 0},
                          {0, 0, e.z}, {e.x, 0, e.z}, {e.x, e.y, e.z}, {0, e.y, e.z}};
  const int edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                            {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (const auto& ed : edges) {
    p.push_back(c[ed[0]]);
    p.push_back(c[ed[1]]);
  }
  return p;
}

// Font pixels per bitmap-font pixel for a target: larger text on larger images.
float label_scale(int height_px) { return height_px >= 500 ? 2.0f : 1.0f; }
constexpr float kBarWidthPx = 18.0f, kBarGapPx = 11.0f, kLabelChars = 7.0f;
// Horizontal room the bar and its labels take at the right edge.
float bar_space_px(int height_px) {
  return kBarWidthPx + kBarGapPx + kLabelChars * (kGlyphWidth + 1) * label_scale(height_px) + 8.0f;
}

// Orthographic view of one slice: its u axis to the right, v up, metres to NDC.
glm::mat4 slice_2d_mvp(SliceAxis a, const RoomGeometry& room, const PixelRect& r, int tw, int th) {
  const auto t = tangent_axes(a);
  const int n = normal_axis(a);
  // Select (u, v, normal) from (x, y, z): column c of a glm matrix is the image of basis vector c.
  glm::mat4 select(0.0f);
  select[t[0]][0] = 1.0f;
  select[t[1]][1] = 1.0f;
  select[n][2] = 1.0f;
  select[3][3] = 1.0f;
  const float lo = 0.5f * room.spacing_m;
  const float hu = (room.dim(t[0]) + 0.5f) * room.spacing_m, hv = (room.dim(t[1]) + 0.5f) * room.spacing_m;
  // Map [lo, hu] x [lo, hv] onto the pixel rect r (top-left origin) inside a tw x th target.
  const float x0 = r.x, x1 = r.x + r.w, y0 = th - (r.y + r.h), y1 = th - r.y;  // GL y grows upwards
  const float sx = (x1 - x0) / (hu - lo), sy = (y1 - y0) / (hv - lo);
  const float left = lo - x0 / sx, right = left + tw / sx;
  const float bottom = lo - y0 / sy, top = bottom + th / sy;
  return glm::ortho(left, right, bottom, top, -1e4f, 1e4f) * select;
}

}  // namespace

ViewRenderer::ViewRenderer()
    : slice_prog_(build_program("slice.vert", "slice.frag", true)),
      line_prog_(build_program("line.vert", "line.frag", false)),
      marker_prog_(build_program("marker.vert", "marker.frag", false)),
      bar_prog_(build_program("colorbar.vert", "colorbar.frag", true)) {}

void ViewRenderer::set_scale_uniforms(const gl::Program& p, const ColorScale& s) const {
  p.set("u_range_max", s.range_max());
  p.set("u_log_scale", s.decibels ? 1 : 0);
  p.set("u_db_span", s.db_span);
}

void ViewRenderer::draw_slice_quad(const glm::mat4& mvp, SliceAxis a, const SliceTextures& slices,
                                   const RoomGeometry& room, const ColorScale& scale) {
  const auto c = room.slice_corners_m(a, slices.positions());
  const float uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  float v[4 * 5];
  for (int q = 0; q < 4; ++q) {
    v[q * 5 + 0] = c[q].x;
    v[q * 5 + 1] = c[q].y;
    v[q * 5 + 2] = c[q].z;
    v[q * 5 + 3] = uv[q][0];
    v[q * 5 + 4] = uv[q][1];
  }
  slice_prog_.use();
  slice_prog_.set("u_mvp", mvp);
  slice_prog_.set("u_slice", 0);
  slice_prog_.set("u_alpha", 1.0f);
  set_scale_uniforms(slice_prog_, scale);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, slices.texture(a));
  glBindVertexArray(vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STREAM_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 5 * sizeof(float), (void*)0);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 5 * sizeof(float), (void*)(3 * sizeof(float)));
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  glDisableVertexAttribArray(1);
  glBindTexture(GL_TEXTURE_2D, 0);
}

void ViewRenderer::draw_lines(const glm::mat4& mvp, const std::vector<glm::vec3>& pts, const glm::vec4& colour,
                              GLenum mode) {
  if (pts.empty()) return;
  line_prog_.use();
  line_prog_.set("u_mvp", mvp);
  line_prog_.set("u_colour", colour);
  glBindVertexArray(vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  glBufferData(GL_ARRAY_BUFFER, pts.size() * sizeof(glm::vec3), pts.data(), GL_STREAM_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), (void*)0);
  glDrawArrays(mode, 0, (GLsizei)pts.size());
}

void ViewRenderer::draw_text(const RenderTarget& t, float x, float y, const char* text, float scale,
                             const glm::vec4& colour) {
  // Two triangles per lit font pixel, in normalised device coordinates.
  const float w = (float)t.width(), h = (float)t.height();
  std::vector<glm::vec3> tris;
  for (const char* c = text; *c; ++c, x += (kGlyphWidth + 1) * scale) {
    const auto* g = glyph(*c);
    if (!g) continue;
    for (int row = 0; row < kGlyphHeight; ++row)
      for (int col = 0; col < kGlyphWidth; ++col) {
        if (!((*g)[row] & (0x10 >> col))) continue;
        const float x0 = 2.0f * (x + col * scale) / w - 1.0f, x1 = x0 + 2.0f * scale / w;
        const float y0 = 1.0f - 2.0f * (y + row * scale) / h, y1 = y0 - 2.0f * scale / h;
        tris.insert(tris.end(), {{x0, y0, 0}, {x1, y0, 0}, {x1, y1, 0}, {x0, y0, 0}, {x1, y1, 0}, {x0, y1, 0}});
      }
  }
  draw_lines(glm::mat4(1.0f), tris, colour, GL_TRIANGLES);
}

void ViewRenderer::draw_markers(const glm::mat4& mvp, const std::vector<Marker>& markers, float size_px) {
  if (markers.empty()) return;
  marker_prog_.use();
  marker_prog_.set("u_mvp", mvp);
  marker_prog_.set("u_point_size_px", size_px);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glBindVertexArray(vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  glBufferData(GL_ARRAY_BUFFER, markers.size() * sizeof(Marker), markers.data(), GL_STREAM_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Marker), (void*)offsetof(Marker, position_m));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(Marker), (void*)offsetof(Marker, colour));
  glDrawArrays(GL_POINTS, 0, (GLsizei)markers.size());
  glDisableVertexAttribArray(1);
}

void ViewRenderer::draw_colour_bar(const RenderTarget& t, const ColorScale& scale, bool labels) {
  const float w = (float)t.width(), h = (float)t.height();
  bar_rect_ = {w - bar_space_px(t.height()), h * 0.15f, kBarWidthPx, h * 0.7f};
  auto ndc_x = [&](float px) { return 2.0f * px / w - 1.0f; };
  auto ndc_y = [&](float py) { return 1.0f - 2.0f * py / h; };
  const float x0 = ndc_x(bar_rect_.x), x1 = ndc_x(bar_rect_.x + bar_rect_.w);
  const float y_top = ndc_y(bar_rect_.y), y_bot = ndc_y(bar_rect_.y + bar_rect_.h);
  // Two quads (bottom half, top half) so the centre colour is exact at the middle.
  const float v[] = {x0, y_bot, -1.0f, x1, y_bot, -1.0f, x1, y_top, 1.0f, x0, y_top, 1.0f};
  bar_prog_.use();
  glBindVertexArray(vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STREAM_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 3 * sizeof(float), (void*)0);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 3 * sizeof(float), (void*)(2 * sizeof(float)));
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  glDisableVertexAttribArray(1);
  // Frame and ticks at -max, 0, +max (and the half-way marks).
  std::vector<glm::vec3> lines = {{x0, y_bot, 0}, {x1, y_bot, 0}, {x1, y_bot, 0}, {x1, y_top, 0},
                                  {x1, y_top, 0}, {x0, y_top, 0}, {x0, y_top, 0}, {x0, y_bot, 0}};
  for (int q = 0; q <= 4; ++q) {
    const float y = y_bot + (y_top - y_bot) * q / 4.0f;
    const float len = (q % 2 == 0 ? 8.0f : 4.0f) * 2.0f / w;
    lines.push_back({x1, y, 0});
    lines.push_back({x1 + len, y, 0});
  }
  draw_lines(glm::mat4(1.0f), lines, glm::vec4(0.9f, 0.9f, 0.9f, 1.0f));
  if (!labels) return;
  // +max at the top, 0 (or -span dB) in the middle, -max at the bottom.
  const float m = scale.range_max();
  char text[3][32];
  snprintf(text[0], sizeof text[0], "%+.2g", m);
  if (scale.decibels)
    snprintf(text[1], sizeof text[1], "-%.0f dB", scale.db_span);
  else
    snprintf(text[1], sizeof text[1], "0");
  snprintf(text[2], sizeof text[2], "%+.2g", -m);
  for (int q = 0; q < 3; ++q) {
    const float fs = label_scale(t.height());
    const float y = bar_rect_.y + bar_rect_.h * q * 0.5f - 0.5f * kGlyphHeight * fs;
    draw_text(t, bar_rect_.x + bar_rect_.w + kBarGapPx, y, text[q], fs, glm::vec4(0.92f, 0.92f, 0.92f, 1.0f));
  }
}

void ViewRenderer::draw_3d(RenderTarget& target, const OrbitCamera& camera, const SliceTextures& slices,
                           const RoomGeometry& room, const ColorScale& scale, const ViewStyle& style,
                           const ObstacleMesh* obstacles) {
  begin_3d_pass(target, style.background);
  const glm::mat4 mvp = camera.projection((float)target.width() / target.height()) * camera.view();
  // Push the slices back a little so their outlines and the box win the depth test.
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(1.0f, 1.0f);
  for (int q = 0; q < kSliceCount; ++q)
    if (style.show_slice[q]) draw_slice_quad(mvp, (SliceAxis)q, slices, room, scale);
  glDisable(GL_POLYGON_OFFSET_FILL);
  std::vector<glm::vec3> outlines;
  for (int q = 0; q < kSliceCount; ++q) {
    if (!style.show_slice[q]) continue;
    const auto c = room.slice_corners_m((SliceAxis)q, slices.positions());
    for (int e = 0; e < 4; ++e) {
      outlines.push_back(c[e]);
      outlines.push_back(c[(e + 1) % 4]);
    }
  }
  draw_lines(mvp, outlines, style.outline_colour);
  draw_lines(mvp, box_edges(room.extent_m), style.box_colour);
  if (obstacles) obstacles->draw(mvp, style.obstacle_alpha, room.extent_m);
  // Markers stay visible through the slices: no depth test.
  glDisable(GL_DEPTH_TEST);
  draw_markers(mvp, room.markers, style.marker_px);
  if (style.colour_bar) draw_colour_bar(target, scale, style.colour_bar_labels);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

PixelRect ViewRenderer::draw_2d(RenderTarget& target, SliceAxis axis, const SliceTextures& slices,
                                const RoomGeometry& room, const ColorScale& scale, const ViewStyle& style) {
  target.bind();
  glClearColor(style.background.r, style.background.g, style.background.b, style.background.a);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  // Fit the slice's aspect into the target, leaving room on the right for the bar.
  const auto t = tangent_axes(axis);
  const float aspect = (float)room.dim(t[0]) / room.dim(t[1]);
  const float margin = 8.0f, bar_space = style.colour_bar ? bar_space_px(target.height()) : 0.0f;
  const float aw = target.width() - 2 * margin - bar_space, ah = target.height() - 2 * margin;
  PixelRect r;
  r.w = std::max(1.0f, std::min(aw, ah * aspect));
  r.h = std::max(1.0f, r.w / aspect);
  r.x = margin + 0.5f * (aw - r.w);
  r.y = margin + 0.5f * (ah - r.h);
  const glm::mat4 mvp = slice_2d_mvp(axis, room, r, target.width(), target.height());
  draw_slice_quad(mvp, axis, slices, room, scale);
  const auto c = room.slice_corners_m(axis, slices.positions());
  std::vector<glm::vec3> frame;
  for (int e = 0; e < 4; ++e) {
    frame.push_back(c[e]);
    frame.push_back(c[(e + 1) % 4]);
  }
  draw_lines(mvp, frame, style.box_colour);
  draw_markers(mvp, room.markers, style.marker_px);
  if (style.colour_bar) draw_colour_bar(target, scale, style.colour_bar_labels);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return r;
}

}  // namespace ws::render
