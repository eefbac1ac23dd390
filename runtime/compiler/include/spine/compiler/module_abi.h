/**
 * @file module_abi.h
 * @brief The C ABI between the module loader and a generated module (seed
 * 001/004, FFI chapter). Valid C11 and C++17, no dependencies beyond
 * value.h, so generated code stays cheap to compile.
 *
 * A module exports four symbols:
 *  - `__mc_func_array__`: SpineBackendFunc[], one `name__c_api` per function;
 *  - `__mc_func_registry__`: SpineFuncRegistry naming the array's entries in
 *    order (names = one count byte, then that many NUL-terminated names);
 *  - `__mc_closures_names__`: the same encoding, functions that need a
 *    closure resource (none are generated today; the loader rejects modules
 *    that declare some rather than call them wrongly; for every other
 *    function the `resource` argument carries the call's SpineRuntimeApi);
 *  - `__mc_module_ctx`: SpineModuleCtx; the module writes its ABI version,
 *    the loader fills in the callbacks before any function runs.
 *
 * Containers cross as objects (value tag = the runtime type index below)
 * that only the call's SpineRuntimeApi interprets: runtime objects through
 * the loader, Python objects through the Python binding. A module reads
 * arguments through it without owning them (they live for the call),
 * converting them into its own unboxed containers, and builds results
 * through it as owned objects.
 */
#ifndef SPINE_COMPILER_MODULE_ABI_H_
#define SPINE_COMPILER_MODULE_ABI_H_

#include "spine/runtime/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped whenever anything in this file, the fault kinds or how modules are linked changes. */
#define SPINE_MODULE_ABI_VERSION 11

/**
 * @brief A module function: @p num_args values at @p args (borrowed), the
 * result written to *@p ret (owned by the caller afterwards). @p resource
 * is the SpineRuntimeApi for this call, or null for the module's default
 * (SpineModuleCtx::api). Returns 0, or -1 after reporting through
 * SpineModuleCtx::set_error.
 */
typedef int (*SpineBackendFunc)(SpineValue* args, int num_args, SpineValue* ret, void* resource);

/** @brief Function table of a module. */
typedef struct SpineFuncRegistry {
  const char* names;        /**< Count byte, then NUL-terminated names. */
  SpineBackendFunc* funcs;  /**< Parallel to names. */
} SpineFuncRegistry;

/** Fault kinds a module reports (SpineModuleCtx::set_error). */
enum SpineFaultKind {
  SPINE_FAULT_FALLBACK = 1,  /**< Not representable natively (int64 overflow, deep recursion): run the Python function. */
  SPINE_FAULT_ZERODIV = 2,   /**< Python's ZeroDivisionError. */
  SPINE_FAULT_VALUE = 3,     /**< Python's ValueError. */
  SPINE_FAULT_TYPE = 4,      /**< Wrong argument count or type (the caller may fall back). */
  SPINE_FAULT_INDEX = 5,     /**< Python's IndexError. */
  SPINE_FAULT_KEY = 6,       /**< Python's KeyError; the message is repr(key). */
  SPINE_FAULT_RUNTIME = 7,   /**< Python's RuntimeError (e.g. a dict changed size during iteration). */
  SPINE_FAULT_PYTHON = 8,    /**< A boxed operation raised: the Python exception is set in the interpreter, raise it as is. */
  SPINE_FAULT_CLASS = 9,     /**< An exception of a class the program defines, with one str argument: the message is
                                  "<class name>: <argument>" (the class is the program's global of that name). */
  SPINE_FAULT_CALLED = 10    /**< An exception class (builtin or the program's) called with other arguments than one str:
                                  the message is "<class name>: <repr of the argument tuple>" (call it with them again). */
};

/** Value tags of the runtime containers (the runtime's fixed type indices; the loader checks them). */
enum SpineContainerTag {
  SPINE_TAG_STR_OBJECT = 1, /**< A string object (arguments also come as SPINE_TYPE_STR immediates). */
  SPINE_TAG_LIST = 2,       /**< list. */
  SPINE_TAG_DICT = 3,       /**< dict. */
  SPINE_TAG_SET = 4,        /**< set. */
  SPINE_TAG_TUPLE = 5,      /**< tuple. */
  SPINE_TAG_PYOBJECT = 6    /**< A boxed value: any Python object (SpineRuntimeApi::boxed only). */
};

/**
 * Operations on boxed values (SpineRuntimeApi::boxed): each is CPython's own
 * (the abstract object API), so a boxed value means exactly what it means in
 * CPython. Operands tagged SPINE_TAG_PYOBJECT are borrowed objects; others
 * are plain values (converted to Python objects for the operation).
 */
enum SpineBoxOp {
  SPINE_BOX_INCREF = 1,    /**< args[0]: one more reference. */
  SPINE_BOX_DECREF = 2,    /**< args[0]: one reference less. */
  SPINE_BOX_FROM = 3,      /**< args[0] (an owned value, consumed): its object. */
  SPINE_BOX_ARG = 4,       /**< args[0] is a POINTER to an argument value of this call: its object (1), 0 if not one. */
  SPINE_BOX_VIEW = 5,      /**< A borrowed view of args[0] (as arguments are read). */
  SPINE_BOX_SEQ_ITEM = 6,  /**< Item args[1] (INT) of the list/tuple view args[0]. */
  SPINE_BOX_DICT_NEXT = 7, /**< Entry from position args[1] (INT, updated) of the dict view args[0]: out[0] key, out[1] value
                                (objects, or borrowed views where args[2] has bit 0 / bit 1 set); 1, or 0 at the end. */
  SPINE_BOX_BINARY = 8,    /**< args[0] (INT, SpineBoxBinary) of args[1], args[2]. */
  SPINE_BOX_UNARY = 9,     /**< args[0] (INT: 0 -x, 1 +x, 2 ~x, 3 abs) of args[1]. */
  SPINE_BOX_COMPARE = 10,  /**< args[0] (INT: Py_LT..Py_GE) of args[1], args[2], as a truth value (BOOL). */
  SPINE_BOX_TRUTH = 11,    /**< bool(args[0]) (BOOL). */
  SPINE_BOX_STR = 12,      /**< str(args[0]). */
  SPINE_BOX_REPR = 13,     /**< repr(args[0]). */
  SPINE_BOX_FORMAT = 14,   /**< format(args[0], args[1]). */
  SPINE_BOX_LEN = 15,      /**< len(args[0]) (INT). */
  SPINE_BOX_GETITEM = 16,  /**< args[0][args[1]]. */
  SPINE_BOX_SETITEM = 17,  /**< args[0][args[1]] = args[2]. */
  SPINE_BOX_CONTAINS = 18, /**< args[1] in args[0] (BOOL). */
  SPINE_BOX_LIST = 19,     /**< list(args[0]) (what a for loop over it iterates). */
  SPINE_BOX_HASH = 20,     /**< hash(args[0]) (INT). */
  SPINE_BOX_EQUAL = 21,    /**< args[0] is args[1] or args[0] == args[1], as containers compare (BOOL). */
  SPINE_BOX_ISINSTANCE = 22, /**< isinstance(args[0], the builtin type args[1] (INT, SpineBoxClass)) (BOOL). */
  SPINE_BOX_METHOD = 23,   /**< args[1].<args[0] (STR)>(args[2], ...). */
  SPINE_BOX_INT = 24,      /**< int(args[0]). */
  SPINE_BOX_FLOAT = 25,    /**< float(args[0]). */
  SPINE_BOX_GETATTR = 26,  /**< getattr(args[0], args[1] (STR)). */
  SPINE_BOX_EXC_TAKE = 27, /**< The exception a boxed operation left set, normalized, its traceback attached; the
                                indicator is cleared (an `except` clause takes it). */
  SPINE_BOX_EXC_RESTORE = 28, /**< Set args[0] (an exception taken before) again, as it was; returns -1. */
  SPINE_BOX_EXC_NEW = 29,  /**< The exception object of native fault kind args[0] (INT) with message args[1] (STR):
                                1, or 0 if it cannot be built exactly (a KeyError whose key repr is not a literal). */
  SPINE_BOX_EXC_MATCH = 30, /**< Does exception args[0] match the builtin exception class named args[1] (STR) (BOOL)? */
  SPINE_BOX_EXC_HANDLING = 31, /**< Make args[0] (an exception, or None) the one being handled (sys.exc_info(), the
                                   __context__ of what is raised meanwhile); returns the one that was. */
  SPINE_BOX_PRINT = 32     /**< print(): keep the text args[0] (STR) with the output of the native call in progress,
                                written to sys.stdout when that call returns; 1 (nothing kept) when the output would
                                pass SPINE_PRINT_BOUND bytes. */
};

/** Bytes a native call may print before it returns; past them CPython runs the call (it streams). */
#define SPINE_PRINT_BOUND (1 << 20)

/** Binary operators of SPINE_BOX_BINARY. */
enum SpineBoxBinary {
  SPINE_BOX_ADD = 0, SPINE_BOX_SUB = 1, SPINE_BOX_MUL = 2, SPINE_BOX_TRUEDIV = 3, SPINE_BOX_FLOORDIV = 4,
  SPINE_BOX_MOD = 5, SPINE_BOX_POW = 6, SPINE_BOX_AND = 7, SPINE_BOX_OR = 8, SPINE_BOX_XOR = 9,
  SPINE_BOX_LSHIFT = 10, SPINE_BOX_RSHIFT = 11,
  SPINE_BOX_INPLACE = 12 /**< Added to one of the above: its in-place form (a += b). */
};

/** Builtin classes of SPINE_BOX_ISINSTANCE. */
enum SpineBoxClass {
  SPINE_BOX_CLASS_INT = 0, SPINE_BOX_CLASS_FLOAT = 1, SPINE_BOX_CLASS_STR = 2, SPINE_BOX_CLASS_BOOL = 3,
  SPINE_BOX_CLASS_LIST = 4, SPINE_BOX_CLASS_DICT = 5, SPINE_BOX_CLASS_TUPLE = 6, SPINE_BOX_CLASS_SET = 7,
  SPINE_BOX_CLASS_NONE = 8
};

/**
 * @brief Runtime services for generated code: how it reads its arguments'
 * containers and builds its results. The loader installs the runtime's
 * table in SpineModuleCtx::api (runtime objects); a caller may pass its own
 * table for one call as the `resource` of SpineBackendFunc (the Python
 * binding does: it hands Python objects in and gets Python objects back, with
 * no runtime containers in between). Within one call every container value
 * belongs to that call's table.
 *
 * Readers borrow: what they write stays valid while the argument lives;
 * None is SPINE_TYPE_NULL (an Optional accepts it); an element they
 * cannot represent gets another tag no conversion accepts (the Python
 * binding's: an opaque null SPINE_TYPE_POINTER), so the module reports a
 * type mismatch and the caller falls back.
 * Builders return owned objects or write owned values, and take ownership
 * of what they are given even when they fail. Every function reports
 * failure by its result (null or -1) and never throws.
 */
typedef struct SpineRuntimeApi {
  /** Number of elements of a list or tuple value. */
  int64_t (*seq_len)(const SpineValue* seq);
  /** Element @p i (0 <= i < length) of a list or tuple value, borrowed. */
  void (*seq_get)(const SpineValue* seq, int64_t i, SpineValue* out);
  /**
   * Next entry of a dict or set value from position *@p pos (start at 0):
   * 1 with the borrowed key (and value, for a dict) and *@p pos advanced, 0 at the end.
   */
  int (*table_next)(const SpineValue* table, int64_t* pos, SpineValue* key, SpineValue* value);
  /** Bytes of a string object value (SPINE_TAG_STR_OBJECT). */
  const char* (*str_data)(const SpineValue* str, int64_t* size);
  /** An owned string value copying @p size bytes (UTF-8); 0 or -1. */
  int (*new_str)(const char* data, int64_t size, SpineValue* out);
  /** A new list object with room for @p reserve elements, or null. */
  void* (*new_list)(int64_t reserve);
  /** Append an owned value to a list object; 0 or -1. */
  int (*list_append)(void* list, SpineValue* item);
  /** A new tuple object of @p n owned values, or null. */
  void* (*new_tuple)(SpineValue* items, int64_t n);
  /** A new dict object, or null. */
  void* (*new_dict)(void);
  /** d[key] = value with owned key and value; 0 or -1. */
  int (*dict_set)(void* dict, SpineValue* key, SpineValue* value);
  /** Release an owned value. */
  void (*release)(SpineValue* value);
  /** Give the list value @p list (an argument) the items of the owned list value @p items, consumed; 0 or -1. */
  int (*list_replace)(const SpineValue* list, SpineValue* items);
  /** Give the dict value @p dict (an argument) the entries of the owned dict value @p entries, in order, consumed. */
  int (*dict_replace)(const SpineValue* dict, SpineValue* entries);
  /**
   * hash() of the str with these UTF-8 bytes: CPython's own (randomised per
   * process) through the Python binding, so a native set's table is the one
   * CPython builds; any fixed hash through the loader's table.
   */
  int64_t (*hash_str)(const char* data, int64_t size);
  /**
   * The table of a set value as CPython holds it: its mask, fill and pop
   * finger; 0, or -1 when the value has no such table (runtime sets: read
   * them with table_next instead).
   */
  int (*set_shape)(const SpineValue* set, int64_t* mask, int64_t* fill, int64_t* finger);
  /** Slot @p i of a set value's table: 0 unused, 1 active (its borrowed key and hash written), 2 dummy. */
  int (*set_slot)(const SpineValue* set, int64_t i, SpineValue* key, int64_t* hash);
  /** A new set object whose table has @p mask + 1 unused slots and this pop finger, or null. */
  void* (*new_set)(int64_t mask, int64_t finger);
  /**
   * Slot @p i of a new set: the owned key with its hash, or a dummy when the
   * key's tag is SPINE_TYPE_NULL (the set's counters follow); 0 or -1.
   */
  int (*set_place)(void* set, int64_t i, SpineValue* key, int64_t hash);
  /**
   * Give the set value @p set (an argument) the table of the owned set value
   * @p members (built by new_set/set_place), consumed: its slots, fill, used
   * and pop finger as they are, so the caller's own set iterates and pops as
   * the native one would. 0, or -1 when @p set cannot change (a frozenset).
   */
  int (*set_replace)(const SpineValue* set, SpineValue* members);
  /**
   * Operation @p op (SpineBoxOp) on @p n values at @p args: 0 (or its
   * documented count) with the result in *@p out (objects owned), -1 with a
   * Python exception set. Null where there is no CPython (the loader's
   * table): functions with boxed values then refuse the call.
   */
  int (*boxed)(int32_t op, SpineValue* args, int32_t n, SpineValue* out);
  /**
   * format(value, spec) of a borrowed int, bool, float or str value
   * (SPINE_TYPE_INT, BOOL, FLOAT or STR) with a spec CPython accepts for its
   * type (the frontend asks CPython when compiling), laid out as CPython
   * does: the text's byte count (UTF-8), the text written to @p out when it
   * fits in @p cap bytes (else ask again with room for it). -1 with
   * *@p error set to a static message for what native code cannot lay out
   * (a '%c' beyond U+10FFFF, a result beyond the native size limit). Every
   * table has the same one (value_format.h): compiled once there, not into
   * each module that formats.
   */
  int64_t (*format)(const SpineValue* value, const char* spec, int64_t spec_size, char* out, int64_t cap,
                    const char** error);
} SpineRuntimeApi;

/** @brief Module context: written by the module (version) and by the loader (callbacks). */
typedef struct SpineModuleCtx {
  int32_t abi_version;  /**< SPINE_MODULE_ABI_VERSION of the generator. */
  int32_t reserved;     /**< Zero. */
  /** Record a fault for the calling thread; the text is copied. */
  void (*set_error)(int32_t kind, const char* message);
  /** Runtime services (see SpineRuntimeApi). */
  const SpineRuntimeApi* api;
} SpineModuleCtx;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // SPINE_COMPILER_MODULE_ABI_H_
