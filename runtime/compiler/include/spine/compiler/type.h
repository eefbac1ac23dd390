/**
 * @file type.h
 * @brief The Type family: object types that describe variables,
 * expressions and function results. PrimType wraps a scalar DataType;
 * StringType, ListType, DictType, SetType and TupleType describe Python's
 * built-in containers with precise element types (what lets native code
 * keep elements unboxed); ClassType is a user class; NoneType is the result
 * of statements-like calls (`lst.append(x)`); IteratorType is the state of
 * a lowered `for` loop.
 */
#ifndef SPINE_COMPILER_TYPE_H_
#define SPINE_COMPILER_TYPE_H_

#include <string>

#include "spine/compiler/node.h"
#include "spine/runtime/array.h"
#include "spine/runtime/str.h"

namespace spine::compiler {

/** @brief Base of every type node. */
class TypeNode : public AstNode {
 public:
  SPINE_AST_NODE(TypeNode, AstNode, "Type")
};

/** @brief Reference to a type. */
class Type : public AstRef {
  SPINE_AST_REF(Type, AstRef, TypeNode)
};

/** @brief A scalar type (int64, float64, bool). */
class PrimTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(PrimTypeNode, TypeNode, "PrimType")
  rt::DataType dtype;  /**< The scalar format. */
  /** Fields: dtype. */
  void VisitAttrs(AttrVisitor* v) override { v->Visit("dtype", &dtype); }
};

/** @brief Reference to a PrimTypeNode. */
class PrimType : public Type {
  SPINE_AST_REF(PrimType, Type, PrimTypeNode)
  /** A new PrimType of @p dtype. */
  static PrimType Make(rt::DataType dtype);
};

/** @brief Python's str (immutable UTF-8 text indexed by code point). */
class StringTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(StringTypeNode, TypeNode, "StringType")
};
/** @brief Reference to a StringTypeNode. */
class StringType : public Type {
  SPINE_AST_REF(StringType, Type, StringTypeNode)
  /** The str type. */
  static StringType Make();
};

/**
 * @brief object: a boxed value, any Python object, whose type is known only
 * at run time (`Any`, `object`, `Union[A, B]`, the elements of a bare
 * `list`/`dict`). Natively a strong reference to the CPython object itself
 * (`spine_cg::Box`, codegen/boxed.h); every operation on it is CPython's own.
 */
class ObjectTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(ObjectTypeNode, TypeNode, "ObjectType")
};
/** @brief Reference to an ObjectTypeNode. */
class ObjectType : public Type {
  SPINE_AST_REF(ObjectType, Type, ObjectTypeNode)
  /** The object type. */
  static ObjectType Make();
};

/** @brief The type of None: the result of calls used as statements. */
class NoneTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(NoneTypeNode, TypeNode, "NoneType")
};
/** @brief Reference to a NoneTypeNode. */
class NoneType : public Type {
  SPINE_AST_REF(NoneType, Type, NoneTypeNode)
  /** The None type. */
  static NoneType Make();
};

/**
 * @brief list[item_type], or (is_tuple) tuple[item_type, ...]: a tuple of any
 * length is a list nobody changes, so every read of a list (len, index,
 * slice, `in`, iteration, +, comparison) applies to it as written; the
 * frontend never calls a mutating method on one, and only the boundary
 * (a Python tuple), index errors ("tuple index out of range") and hashing
 * (it may be a key) tell them apart.
 */
class ListTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(ListTypeNode, TypeNode, "ListType")
  Type item_type;        /**< Element type. */
  int64_t is_tuple = 0;  /**< 1 for tuple[item_type, ...]. */
  /** Fields: item_type, is_tuple. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("item_type", &item_type);
    v->Visit("is_tuple", &is_tuple);
  }
};
/** @brief Reference to a ListTypeNode. */
class ListType : public Type {
  SPINE_AST_REF(ListType, Type, ListTypeNode)
  /** list[@p item] (or tuple[@p item, ...] if @p is_tuple); None is not an element type. */
  static ListType Make(Type item, bool is_tuple = false);
};
/** True for tuple[T, ...] (a ListType marked is_tuple). */
bool IsVarTupleType(const Type& t);

/** @brief set[item_type]; members must be hashable (int, bool, str, tuples of them). */
class SetTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(SetTypeNode, TypeNode, "SetType")
  Type item_type;  /**< Member type. */
  /** Fields: item_type. */
  void VisitAttrs(AttrVisitor* v) override { v->Visit("item_type", &item_type); }
};
/** @brief Reference to a SetTypeNode. */
class SetType : public Type {
  SPINE_AST_REF(SetType, Type, SetTypeNode)
  /** set[@p item]; throws TypeError for member types that are not hashable natively. */
  static SetType Make(Type item);
};

/** @brief dict[key_type, value_type]; keys must be hashable (as set members). */
class DictTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(DictTypeNode, TypeNode, "DictType")
  Type key_type;    /**< Key type. */
  Type value_type;  /**< Value type. */
  /** Fields: key_type, value_type. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("key_type", &key_type);
    v->Visit("value_type", &value_type);
  }
};
/** @brief Reference to a DictTypeNode. */
class DictType : public Type {
  SPINE_AST_REF(DictType, Type, DictTypeNode)
  /** dict[@p key, @p value]; throws TypeError for keys that are not hashable natively. */
  static DictType Make(Type key, Type value);
};

/** @brief tuple[f0, f1, ...] with a fixed length. */
class TupleTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(TupleTypeNode, TypeNode, "TupleType")
  rt::Array<Type> fields;  /**< Element types, in order. */
  /** Fields: fields. */
  void VisitAttrs(AttrVisitor* v) override { v->Visit("fields", &fields); }
};
/** @brief Reference to a TupleTypeNode. */
class TupleType : public Type {
  SPINE_AST_REF(TupleType, Type, TupleTypeNode)
  /** tuple[@p fields...]. */
  static TupleType Make(rt::Array<Type> fields);
};

/**
 * @brief Optional[item_type]: None or a value of item_type (a value type,
 * never None or another Optional). Natively a flag beside an unboxed value
 * (`spine_cg::Opt<T>`), so `Optional[int]` costs no allocation; class
 * references may use their own null instead.
 */
class OptionalTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(OptionalTypeNode, TypeNode, "OptionalType")
  Type item_type;  /**< The type of the value when it is not None. */
  /** Fields: item_type. */
  void VisitAttrs(AttrVisitor* v) override { v->Visit("item_type", &item_type); }
};
/** @brief Reference to an OptionalTypeNode. */
class OptionalType : public Type {
  SPINE_AST_REF(OptionalType, Type, OptionalTypeNode)
  /** Optional[@p item]; TypeError for None, an iterator or another Optional. */
  static OptionalType Make(Type item);
};

/**
 * @brief A user class: named, typed fields; methods are PrimFuncs named
 * `Class.method` whose first parameter is the instance. Instances are
 * shared references, as in Python. A class made by Make has no base and
 * no field may (even indirectly) have its own type, so its instances
 * cannot form cycles. A class of a hierarchy (single inheritance) is made
 * by Declare and given its fields by Define, so fields may name classes
 * declared later or the class itself (`link: Optional[Node]`, the null
 * reference being None); see RATIONALE.md for how such cycles are freed.
 */
class ClassTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(ClassTypeNode, TypeNode, "ClassType")
  std::string name;                 /**< Class name (a Python identifier). */
  rt::Array<rt::Str> field_names;   /**< Field names, in layout order (a base's fields first). */
  rt::Array<Type> field_types;      /**< Their types, parallel to field_names. */
  Type base;                        /**< The base class (undefined: none). */
  int64_t type_id = -1;             /**< Identity within its hierarchy (-1: not in one). */
  bool defined_fields = true;       /**< False between Declare and Define. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("name", &name);
    v->Visit("field_names", &field_names);
    v->Visit("field_types", &field_types);
    v->Visit("base", &base);
    v->Visit("type_id", &type_id);
  }
};
/** @brief Reference to a ClassTypeNode. */
class ClassType : public Type {
  SPINE_AST_REF(ClassType, Type, ClassTypeNode)
  /** A class; names must be unique identifiers and no field may reach the class itself. */
  static ClassType Make(std::string name, rt::Array<rt::Str> field_names, rt::Array<Type> field_types);
  /**
   * A class of a hierarchy whose fields come later (Define): @p base is its
   * base class (undefined for a root), @p type_id its identity (>= 0, unique
   * in the module).
   */
  static ClassType Declare(std::string name, Type base, int64_t type_id);
  /** Give a declared class its fields; a base's fields must come first, with their types. */
  void Define(rt::Array<rt::Str> field_names, rt::Array<Type> field_types) const;
  /** Index of field @p name, or -1. */
  int64_t FieldIndex(const std::string& name) const;
};

/** True if class @p c is @p ancestor or derives from it. */
bool IsSubclass(const ClassTypeNode* c, const ClassTypeNode* ancestor);

/**
 * @brief The state of a lowered `for` loop over a container. `kind` is one
 * of "list", "str", "keys", "values", "items"; sources holds the container;
 * item_type is what each step yields. (enumerate() and zip() are composed
 * by the frontend around these.)
 */
class IteratorTypeNode : public TypeNode {
 public:
  SPINE_AST_NODE(IteratorTypeNode, TypeNode, "IteratorType")
  std::string kind;         /**< Iteration kind. */
  rt::Array<Type> sources;  /**< Container or iterator types it draws from. */
  Type item_type;           /**< Type of each item. */
  /** Fields. */
  void VisitAttrs(AttrVisitor* v) override {
    v->Visit("kind", &kind);
    v->Visit("sources", &sources);
    v->Visit("item_type", &item_type);
  }
};
/** @brief Reference to an IteratorTypeNode. */
class IteratorType : public Type {
  SPINE_AST_REF(IteratorType, Type, IteratorTypeNode)
  /** An iterator of @p kind over @p sources; the item type is derived (TypeError if they do not fit). */
  static IteratorType Make(std::string kind, rt::Array<Type> sources);
};

/** The PrimType of a scalar (shared instances). */
Type ScalarType(rt::DataType t);
/** Structural type equality (classes by name). */
bool TypeEqual(const Type& a, const Type& b);
/** Python-like text: int64, str, list[int64], dict[str, int64], tuple[int64, str], Point, None. */
std::string TypeText(const Type& t);
/** The DataType a value of @p t has (seed: GetRuntimeDataType): the scalar, or handle. */
rt::DataType RuntimeDataType(const Type& t);
/** True for int64, float64 and bool PrimTypes. */
bool IsScalarType(const Type& t);
/** True if @p t may be a dict key or set member natively: int, bool, str and tuples of them. */
bool IsHashableType(const Type& t);
/** True if @p t is or contains float64 (CPython compares such container elements by identity first). */
bool ContainsFloat(const Type& t);
/** True if Python orders values of @p t (<): numbers, str, and lists/tuples of ordered types. */
bool IsOrderedType(const Type& t);
/** True if values of @p t can be mutated in place (list, dict, set, class, or tuples holding them). */
bool IsMutableType(const Type& t);

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_TYPE_H_
