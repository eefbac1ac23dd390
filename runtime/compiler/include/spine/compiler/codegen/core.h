/**
 * @file core.h
 * @brief Foundations of generated code: faults, memory, and the reference
 * counted object handle every native container and class instance uses.
 *
 * No standard header is included (compile time, see codegen_support.h):
 * memory goes through the compiler's `__builtin_malloc`/`__builtin_free`,
 * objects are built with a placement `new` keyed by a private tag type.
 */
#ifndef SPINE_COMPILER_CODEGEN_CORE_H_
#define SPINE_COMPILER_CODEGEN_CORE_H_

#include "spine/compiler/module_abi.h"

namespace spine_cg {

/** Size type without <cstddef>. */
using size_t = __SIZE_TYPE__;

/**
 * Marks library functions that are not worth inlining (growth, sorting,
 * conversions, string building): generated modules then compile faster and
 * stay small, and hot loops keep their small inline operations.
 */
#define SPINE_CG_OUTLINE __attribute__((noinline))

/** @brief Tag of spine_cg's placement new (never clashes with <new>'s). */
struct Place {};

}  // namespace spine_cg

/** Construct in place (spine_cg's own form, so no standard header is needed). */
inline void* operator new(spine_cg::size_t, void* p, spine_cg::Place) noexcept { return p; }
/** Matching placement delete (called only if a constructor throws; nothing to free). */
inline void operator delete(void*, void*, spine_cg::Place) noexcept {}

namespace spine_cg {

/** Capacity of a fault message built at run time (longer text is cut). */
inline constexpr int kFaultTextSize = 512;

/**
 * @brief What generated code throws; kind is a SpineFaultKind. The message
 * is static text, or (message null) one built at run time and carried in
 * the fault itself: a per-thread buffer would sit in the module's TLS,
 * which -ftls-model=initial-exec puts in glibc's small static TLS surplus
 * (a few loaded modules would exhaust it and fail to load).
 */
struct Fault {
  int kind;                   /**< SpineFaultKind, or kFirstClassFault and up: see cls. */
  const char* cls;            /**< For a kind from kFirstClassFault: the program's class name (a static literal). */
  const char* message;        /**< Static text, or null: see text. */
  /**
   * The text is the repr of the argument tuple the class was called with (`raise
   * ValueError("bad", n)`, `raise KeyError` with none, one int), not str() of its one argument.
   */
  bool called;
  char text[kFaultTextSize];  /**< A message built at run time (FaultText), NUL-terminated. */
  /** The message. */
  const char* Text() const { return message ? message : text; }
};

/**
 * Fault kinds from here up are the exception classes of the program (one each, matched by
 * the bit masks of `except` clauses as SpineFaultKind are); they cross the module ABI as
 * SPINE_FAULT_CLASS. Below are SpineFaultKind and room for more.
 */
inline constexpr int kFirstClassFault = 16;

/** The Python class name of fault @p f: a SpineFaultKind's builtin class, or the program's class. */
inline const char* FaultClassName(const Fault& f) {
  switch (f.kind) {
    case SPINE_FAULT_ZERODIV: return "ZeroDivisionError";
    case SPINE_FAULT_VALUE: return "ValueError";
    case SPINE_FAULT_INDEX: return "IndexError";
    case SPINE_FAULT_KEY: return "KeyError";
    case SPINE_FAULT_RUNTIME: return "RuntimeError";
    default: return f.kind >= kFirstClassFault ? f.cls : nullptr;
  }
}

/** Throw a Fault (out of the hot path). */
[[noreturn]] __attribute__((noinline, cold)) inline void Raise(int kind, const char* message) {
  Fault f;
  f.kind = kind;
  f.cls = nullptr;
  f.message = message;
  f.called = false;
  f.text[0] = '\0';
  throw f;
}

/** Python ints are unbounded: an int64 overflow means "let CPython compute it". */
[[noreturn]] inline void Overflow() { Raise(SPINE_FAULT_FALLBACK, "int64 overflow"); }

/** Write @p v in decimal into @p out (room for 20 characters); returns the length. */
inline int FormatDecimal(int64_t v, char* out) {
  char rev[20];
  int n = 0;
  uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  do {
    rev[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u);
  int len = 0;
  if (v < 0) out[len++] = '-';
  while (n) out[len++] = rev[--n];
  return len;
}

/** @brief A message assembled at run time (e.g. a KeyError's repr(key)), thrown with the fault. */
class FaultText {
 public:
  FaultText() { buf_[0] = '\0'; }
  /** Append @p n bytes of @p s (cut at the capacity). */
  FaultText& Add(const char* s, int64_t n) {
    for (int64_t i = 0; i < n && len_ < kFaultTextSize - 1; ++i) buf_[len_++] = s[i];
    buf_[len_] = '\0';
    return *this;
  }
  /** Append a NUL-terminated string. */
  FaultText& Add(const char* s) { return Add(s, static_cast<int64_t>(__builtin_strlen(s))); }
  /** Append a decimal integer. */
  FaultText& Add(int64_t v) {
    char digits[24];
    return Add(digits, FormatDecimal(v, digits));
  }
  /** The text so far, NUL-terminated. */
  const char* Data() const { return buf_; }
  /** Throw the assembled text as a fault of @p kind. */
  [[noreturn]] __attribute__((noinline, cold)) void Raise(int kind) {
    Fault f;
    f.kind = kind;
    f.cls = nullptr;
    f.message = nullptr;
    f.called = false;
    __builtin_memcpy(f.text, buf_, static_cast<size_t>(len_) + 1);
    throw f;
  }

 private:
  char buf_[kFaultTextSize];
  int len_ = 0;
};

/** Allocate @p n bytes; on exhaustion let CPython try (it raises MemoryError itself). */
inline void* Alloc(size_t n) {
  void* p = __builtin_malloc(n ? n : 1);
  if (p == nullptr) Raise(SPINE_FAULT_FALLBACK, "out of memory");
  return p;
}
/** Release memory from Alloc. */
inline void Free(void* p) { __builtin_free(p); }

/**
 * Element counts above this go back to CPython before anything is
 * allocated (it decides between building the value and MemoryError).
 */
inline constexpr int64_t kMaxElements = int64_t(1) << 31;

/** Refuse a container of @p n elements before allocating it. */
inline void CheckSize(int64_t n) {
  if (n < 0 || n > kMaxElements) Raise(SPINE_FAULT_FALLBACK, "result too large for native code");
}

/** std::move without <utility>. */
template <typename T>
T&& Move(T& v) noexcept {
  return static_cast<T&&>(v);
}

/**
 * Whether the last release of a T stays inline at every handle (Ref::Drop).
 * The storage of containers of scalars does (list.h, table.h and pyset.h say
 * so), so loops that make and drop lists of ints keep their code; containers
 * of strings, tuples or containers release their elements in a loop, one
 * out-of-line function per type like class instances (a module grouping
 * words into a dict[str, str]: 0.76 -> 0.53 s of CPU, for one call per
 * container freed). A class instance's is one out-of-line function per
 * class: inlined, g++ -O3 unrolled the destruction
 * of objects that hold references to their own class (tree nodes, linked
 * tasks) several levels deep at every handle going out of scope, most of such
 * a module's compile time (a binary tree's module: 0.98 -> 0.23 s of CPU).
 */
template <typename T>
struct ReleasedInline {
  static constexpr bool value = false;  /**< Class instances. */
};

/**
 * @brief Owning handle on a reference-counted object T (a struct whose
 * first member is `int64_t rc`). Copying shares the object, as Python names
 * do; the count is not atomic because a native call runs on one thread and
 * nothing native outlives the call.
 */
template <typename T>
class Ref {
 public:
  Ref() noexcept = default;
  /** Adopt @p p (its count already includes this reference). */
  explicit Ref(T* p) noexcept : p_(p) {}
  Ref(const Ref& o) noexcept : p_(o.p_) {  // NOLINT: shared, as Python names
    if (p_) ++p_->rc;
  }
  Ref(Ref&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  Ref& operator=(const Ref& o) noexcept {
    // Read o first: it may live inside the object Drop() frees (`node = node->next`).
    T* p = o.p_;
    if (p) ++p->rc;
    Drop();
    p_ = p;
    return *this;
  }
  Ref& operator=(Ref&& o) noexcept {
    if (this != &o) {
      T* p = o.p_;  // o may live inside the object Drop() frees
      o.p_ = nullptr;
      Drop();
      p_ = p;
    }
    return *this;
  }
  ~Ref() { Drop(); }
  /** The object (the handle must be set). */
  T* operator->() const noexcept { return p_; }
  /** The object or null. */
  T* get() const noexcept { return p_; }
  /** A new object, count 1. */
  template <typename... A>
  static Ref New(A&&... args) {
    void* mem = Alloc(sizeof(T));
    return Ref(new (mem, Place()) T(static_cast<A&&>(args)...));
  }

 private:
  void Drop() noexcept {
    if (p_ && --p_->rc == 0) {
      if constexpr (ReleasedInline<T>::value) {
        p_->~T();
        Free(p_);
      } else {
        Release(p_);
      }
    }
    p_ = nullptr;
  }
  /** The last release of a T, out of line (ReleasedInline). */
  SPINE_CG_OUTLINE static void Release(T* p) noexcept {
    p->~T();
    Free(p);
  }
  T* p_ = nullptr;
};

}  // namespace spine_cg

#endif  // SPINE_COMPILER_CODEGEN_CORE_H_
