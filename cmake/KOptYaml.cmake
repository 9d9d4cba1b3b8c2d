# yaml-cpp, linked statically: the GPU machine has yaml-cpp 0.8, this one 0.7,
# so the shared library kopt would be built against is not there.
find_path(KOPT_YAML_CPP_INCLUDE yaml-cpp/yaml.h REQUIRED)
find_library(KOPT_YAML_CPP_STATIC NAMES libyaml-cpp.a REQUIRED)
add_library(kopt_yaml_cpp INTERFACE)
target_include_directories(kopt_yaml_cpp SYSTEM INTERFACE ${KOPT_YAML_CPP_INCLUDE})
target_link_libraries(kopt_yaml_cpp INTERFACE ${KOPT_YAML_CPP_STATIC})
