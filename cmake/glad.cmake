# glad2 generates the OpenGL 4.3 core and EGL loaders inside the build tree.
# --reproducible uses the Khronos specifications shipped in Debian's python3-glad
# (without it glad fetches them from the network, which these machines cannot reach).
find_program(GLAD_EXECUTABLE glad REQUIRED)
set(_glad_dir ${CMAKE_BINARY_DIR}/glad)
add_custom_command(
  OUTPUT ${_glad_dir}/src/gl.c ${_glad_dir}/src/egl.c
         ${_glad_dir}/include/glad/gl.h ${_glad_dir}/include/glad/egl.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api "gl:core=4.3,egl=1.5"
          --out-path ${_glad_dir} c --loader
  COMMENT "Generating OpenGL 4.3 core and EGL loaders with glad2"
  VERBATIM)
add_library(glad STATIC ${_glad_dir}/src/gl.c ${_glad_dir}/src/egl.c)
target_include_directories(glad SYSTEM PUBLIC ${_glad_dir}/include)
target_link_libraries(glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
