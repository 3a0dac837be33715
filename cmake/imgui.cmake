# Debian's libimgui-dev (Dear ImGui 1.86) ships libimgui.a with the GLFW and
# OpenGL3 backends inside; link it as `pkg-config --static imgui` says (it needs libstb).
pkg_check_modules(IMGUI_PC REQUIRED imgui)
find_library(IMGUI_LIB NAMES libimgui.a imgui REQUIRED)
find_library(STB_LIB NAMES stb REQUIRED)
add_library(imgui INTERFACE)
target_include_directories(imgui SYSTEM INTERFACE ${IMGUI_PC_INCLUDE_DIRS} /usr/include/imgui/backends)
target_link_libraries(imgui INTERFACE ${IMGUI_LIB} ${STB_LIB} glfw m)
