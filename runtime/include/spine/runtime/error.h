/**
 * @file error.h
 * @brief Runtime errors (C++ exceptions inside the runtime) and the
 * thread-local last error used at every boundary that may not throw.
 */
#ifndef SPINE_RUNTIME_ERROR_H_
#define SPINE_RUNTIME_ERROR_H_

#include <stdexcept>
#include <string>

namespace spine::runtime {

/**
 * @brief Error category. The values are part of the C API
 * (SpineGetLastErrorKind) and map one-to-one onto Python exception classes.
 */
enum class ErrorKind : int {
  kNone = 0,          /**< No error recorded. */
  kRuntimeError = 1,  /**< Anything without a more specific category. */
  kTypeError = 2,     /**< Wrong type or wrong call shape (Python's TypeError). */
  kValueError = 3,    /**< Right type, bad value. */
  kIndexError = 4,    /**< Sequence index out of range. */
  kKeyError = 5,      /**< Missing mapping key. */
  kOverflowError = 6, /**< A number does not fit the runtime representation. */
};

/** @brief The one exception type the runtime throws; carries an ErrorKind. */
class Error : public std::runtime_error {
 public:
  /** Build an error of @p kind with a human-readable @p message. */
  Error(ErrorKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  /** The category of the error. */
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

/** Throw Error(kTypeError, message). Out of line to keep callers small. */
[[noreturn]] void ThrowTypeError(const std::string& message);
/** Throw Error(kIndexError, message). */
[[noreturn]] void ThrowIndexError(const std::string& message);
/** Throw Error(kKeyError, message). */
[[noreturn]] void ThrowKeyError(const std::string& message);
/** Throw Error(kValueError, message). */
[[noreturn]] void ThrowValueError(const std::string& message);
/** Throw Error(kRuntimeError, message). */
[[noreturn]] void ThrowRuntimeError(const std::string& message);

/** Record @p message as this thread's last error. Never throws. */
void SetLastError(ErrorKind kind, const char* message) noexcept;
/** Record the error carried by the exception currently being handled. Call only inside a catch block. */
void SetLastErrorFromCurrentException() noexcept;
/** Prefix the current last error with @p context (e.g. "add(): "); keeps the kind. */
void WrapLastError(const char* context) noexcept;
/** This thread's last error message ("" if none). Valid until the next error on this thread. */
const char* LastErrorMessage() noexcept;
/** This thread's last error kind. */
ErrorKind LastErrorKind() noexcept;
/** Forget this thread's last error. */
void ClearLastError() noexcept;
/** Throw the last error of this thread as an Error (used by C++ convenience wrappers). */
[[noreturn]] void RethrowLastError();

/**
 * @brief Record a failure and return false: the idiom for call entries,
 * `return Fail(ErrorKind::kValueError, "...");`.
 */
inline bool Fail(ErrorKind kind, const char* message) noexcept {
  SetLastError(kind, message);
  return false;
}

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_ERROR_H_
