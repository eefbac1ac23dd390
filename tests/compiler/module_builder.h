// Test helper: a temporary directory in which generated C++ is compiled
// into modules with the flags simple_compile uses (plus the sanitizers when
// the tests themselves run under them, so the native container library is
// checked by ASan/UBSan too).
#ifndef SPINE_TESTS_COMPILER_MODULE_BUILDER_H_
#define SPINE_TESTS_COMPILER_MODULE_BUILDER_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace spine_test {

/** @brief A fixture owning a temp dir; Compile() turns C++ source into a .so there. */
class ModuleBuilder : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/spine_codegen_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  /** Compile @p source into dir/@p name.so; returns its path. */
  std::string Compile(const std::string& source, const std::string& name) {
    std::string cc = dir_ + "/" + name + ".cc", so = dir_ + "/" + name + ".so";
    std::ofstream(cc) << source;
    std::string includes, path = SPINE_CODEGEN_INCLUDE_PATH;
    for (size_t s = 0, e; s <= path.size(); s = e + 1) {
      e = path.find(':', s);
      if (e == std::string::npos) e = path.size();
      includes += " -I'" + path.substr(s, e - s) + "'";
    }
    // Linked against the runtime library, where the per-thread state of native code lives,
    // and, as simple_compile links them, its C++ runtime.
    std::string cmd = "g++ -std=c++17 -O2 -shared -fPIC" + std::string(kSanitize) + includes + " '" + cc + "' '" +
                      SPINE_RUNTIME_LIBRARY + "' " + SPINE_MODULE_LINK_FLAGS + " -o '" + so + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return so;
  }
  std::string dir_;  ///< The temp dir.

 private:
#ifdef SPINE_CODEGEN_SANITIZE
  static constexpr const char* kSanitize = " -fsanitize=address,undefined -fno-sanitize-recover=undefined";
#else
  static constexpr const char* kSanitize = "";
#endif
};

}  // namespace spine_test

#endif  // SPINE_TESTS_COMPILER_MODULE_BUILDER_H_
