// Thread-local last error. The message lives in a thread_local std::string so
// the pointer handed out by LastErrorMessage stays valid until the next error
// on the same thread; other threads never overwrite it.
#include "spine/runtime/error.h"

#include <exception>
#include <new>
#include <string>

namespace spine::runtime {
namespace {

struct LastError {
  ErrorKind kind = ErrorKind::kNone;
  std::string message;
};

LastError& Tls() noexcept {
  thread_local LastError e;
  return e;
}

void Store(ErrorKind kind, const char* message) noexcept {
  LastError& e = Tls();
  e.kind = kind;
  try {
    e.message.assign(message ? message : "");
  } catch (...) {
    // Out of memory while reporting: keep the kind, drop the text.
    e.message.clear();
  }
}

}  // namespace

void ThrowTypeError(const std::string& m) { throw Error(ErrorKind::kTypeError, m); }
void ThrowIndexError(const std::string& m) { throw Error(ErrorKind::kIndexError, m); }
void ThrowKeyError(const std::string& m) { throw Error(ErrorKind::kKeyError, m); }
void ThrowValueError(const std::string& m) { throw Error(ErrorKind::kValueError, m); }
void ThrowRuntimeError(const std::string& m) { throw Error(ErrorKind::kRuntimeError, m); }

void SetLastError(ErrorKind kind, const char* message) noexcept { Store(kind, message); }

void SetLastErrorFromCurrentException() noexcept {
  try {
    throw;
  } catch (const Error& e) {
    Store(e.kind(), e.what());
  } catch (const std::bad_alloc&) {
    Store(ErrorKind::kRuntimeError, "out of memory");
  } catch (const std::exception& e) {
    Store(ErrorKind::kRuntimeError, e.what());
  } catch (...) {
    Store(ErrorKind::kRuntimeError, "unknown C++ exception");
  }
}

void WrapLastError(const char* context) noexcept {
  LastError& e = Tls();
  try {
    e.message.insert(0, context);
  } catch (...) {
  }
}

const char* LastErrorMessage() noexcept { return Tls().message.c_str(); }
ErrorKind LastErrorKind() noexcept { return Tls().kind; }
void ClearLastError() noexcept {
  Tls().kind = ErrorKind::kNone;
  Tls().message.clear();
}

void RethrowLastError() {
  LastError& e = Tls();
  throw Error(e.kind == ErrorKind::kNone ? ErrorKind::kRuntimeError : e.kind, e.message);
}

}  // namespace spine::runtime
