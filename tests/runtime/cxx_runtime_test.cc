// One C++ runtime per process (cmake/cxx_runtime.cmake). This executable also
// maps libstdc++.so.6 (GoogleTest needs all of it), while libspine_runtime.so
// carries a C++ runtime of its own; the runtime library comes first in the
// executable's search order, so the executable binds the exception ABI to it
// and a throw in the runtime meets a catch here in one copy: the count of
// uncaught exceptions goes up and down in the same place.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cxxabi.h>
#include <exception>
#include <string>

#include "spine/runtime/error.h"

namespace spine::runtime {
namespace {

std::string DefinedIn(void* address) {
  Dl_info info{};
  if (dladdr(address, &info) == 0 || info.dli_fname == nullptr) return "";
  std::string path = info.dli_fname;
  return path.substr(path.rfind('/') + 1);
}

// (Catching, not throwing: under ASan the executable's __cxa_throw is ASan's interceptor.)
TEST(CxxRuntime, TheExecutableCatchesWithTheRuntimeLibrarysCopy) {
#if SPINE_CXX_IN_RUNTIME
  const char* expected = "libspine_runtime.so";
#else  // sanitizer builds keep libstdc++.so.6
  const char* expected = "libstdc++.so.6";
#endif
  EXPECT_EQ(DefinedIn(reinterpret_cast<void*>(&__cxxabiv1::__cxa_begin_catch)), expected);
  EXPECT_EQ(DefinedIn(reinterpret_cast<void*>(&__cxxabiv1::__cxa_end_catch)), expected);
  EXPECT_EQ(DefinedIn(reinterpret_cast<void*>(&__cxxabiv1::__cxa_current_exception_type)), expected);
}

TEST(CxxRuntime, AnErrorThrownInTheRuntimeIsCaughtHereAsItsOwnType) {
  ASSERT_EQ(std::uncaught_exceptions(), 0);
  int caught = 0;
  try {
    ThrowValueError("thrown in the runtime library");
  } catch (const Error& e) {
    ++caught;
    EXPECT_EQ(e.kind(), ErrorKind::kValueError);
    EXPECT_STREQ(e.what(), "thrown in the runtime library");
    EXPECT_EQ(std::uncaught_exceptions(), 0);  // one copy counted the throw and the catch
    EXPECT_NE(std::current_exception(), nullptr);
  }
  EXPECT_EQ(caught, 1);
  EXPECT_EQ(std::uncaught_exceptions(), 0);
  EXPECT_EQ(std::current_exception(), nullptr);
}

}  // namespace
}  // namespace spine::runtime
