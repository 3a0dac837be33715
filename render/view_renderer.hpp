#pragma once
// The two views, drawn into render targets with GL only:
//  - draw_3d: the three slices inside the room's wireframe box, slice
//    outlines, the obstacles (when given), source and receiver markers, and
//    the colour bar, seen by an orbit camera;
//  - draw_2d: one slice filling the target with its aspect kept, the markers
//    projected onto it, and the colour bar.
// The same calls serve the GUI window, `wavescope render` and the tests.
#include "color_scale.hpp"
#include "gl_program.hpp"
#include "orbit_camera.hpp"
#include "render_target.hpp"
#include "room_geometry.hpp"
#include "slice_textures.hpp"

namespace ws::render {

struct ViewStyle {
  glm::vec4 background{0.11f, 0.12f, 0.14f, 1.0f};
  glm::vec4 box_colour{0.85f, 0.85f, 0.85f, 1.0f};
  glm::vec4 outline_colour{0.35f, 0.35f, 0.38f, 1.0f};
  std::array<bool, kSliceCount> show_slice{true, true, true};
  float marker_px = 11.0f;
  bool colour_bar = true;
  bool colour_bar_labels = true;  // the range's numbers beside the bar
  float obstacle_alpha = 0.45f;   // obstacles are see-through so the slices behind stay visible
};

class ObstacleMesh;  // obstacle_mesh.hpp

// A pixel rectangle in a target, origin top-left (as windows and ImGui count).
struct PixelRect {
  float x = 0, y = 0, w = 0, h = 0;
};

class ViewRenderer {
 public:
  ViewRenderer();  // compiles the programs; a GL 4.3 context must be current

  // obstacles (optional): the scene's obstacle surfaces, drawn over the slices, under the markers.
  void draw_3d(RenderTarget& target, const OrbitCamera& camera, const SliceTextures& slices,
               const RoomGeometry& room, const ColorScale& scale, const ViewStyle& style = {},
               const ObstacleMesh* obstacles = nullptr);
  // Returns where the slice image landed in the target (for hovering).
  PixelRect draw_2d(RenderTarget& target, SliceAxis axis, const SliceTextures& slices, const RoomGeometry& room,
                    const ColorScale& scale, const ViewStyle& style = {});
  // Where the last colour bar was drawn (the GUI labels it with ImGui text).
  PixelRect colour_bar_rect() const { return bar_rect_; }

 private:
  void set_scale_uniforms(const gl::Program& p, const ColorScale& s) const;
  void draw_slice_quad(const glm::mat4& mvp, SliceAxis a, const SliceTextures& slices, const RoomGeometry& room,
                       const ColorScale& scale);
  void draw_lines(const glm::mat4& mvp, const std::vector<glm::vec3>& pts, const glm::vec4& colour,
                  GLenum mode = GL_LINES);
  // Text in the bitmap font at pixel (x, y) (top-left origin), `scale` pixels per font pixel.
  void draw_text(const RenderTarget& target, float x_px, float y_px, const char* text, float scale,
                 const glm::vec4& colour);
  void draw_markers(const glm::mat4& mvp, const std::vector<Marker>& markers, float size_px);
  void draw_colour_bar(const RenderTarget& target, const ColorScale& scale, bool labels);

  gl::Program slice_prog_, line_prog_, marker_prog_, bar_prog_;
  gl::VertexArray vao_;
  gl::Buffer vbo_;
  PixelRect bar_rect_;
};

}  // namespace ws::render
