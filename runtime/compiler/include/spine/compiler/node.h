/**
 * @file node.h
 * @brief Common base of every AST node: an object of
 * the runtime's object system with a `VisitAttrs` reflection hook, and the
 * macros that declare node types and their reference classes.
 */
#ifndef SPINE_COMPILER_NODE_H_
#define SPINE_COMPILER_NODE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "spine/runtime/datatype.h"
#include "spine/runtime/object.h"

namespace spine::compiler {

namespace rt = ::spine::runtime;

/**
 * @brief Visits the named fields of a node. A node lists exactly the fields
 * it wants to expose; reflection (runtime.NodeGetAttr) is built on this.
 */
class AttrVisitor {
 public:
  virtual ~AttrVisitor() = default;
  /** An integer field. */
  virtual void Visit(const char* key, int64_t* value) = 0;
  /** A float field. */
  virtual void Visit(const char* key, double* value) = 0;
  /** A string field. */
  virtual void Visit(const char* key, std::string* value) = 0;
  /** A scalar data type field. */
  virtual void Visit(const char* key, rt::DataType* value) = 0;
  /** A reference field (expression, statement, array, ...); may be undefined. */
  virtual void Visit(const char* key, rt::object_r* value) = 0;
};

/** Declare the runtime type of an AST node class (index allocated on first use). */
#define SPINE_AST_NODE(Class, Parent, Name)                                 \
  static constexpr int32_t INDEX = ::spine::runtime::TypeIndex::Dynamic;    \
  static constexpr std::string_view NAME = Name;                            \
  SPINE_DEFINE_TYPEINDEX(Class, Parent)

/** Declare the members every reference class of a node needs. */
#define SPINE_AST_REF(Ref, Parent, Node)                                                   \
 public:                                                                                   \
  using ContainerType = Node;                                                              \
  Ref() noexcept = default;                                                                \
  explicit Ref(::spine::runtime::object_p<::spine::runtime::object_t> n) noexcept          \
      : Parent(std::move(n)) {}                                                            \
  const Node* operator->() const noexcept { return static_cast<const Node*>(get()); }

/** @brief Root of all AST nodes: adds the reflection hook to object_t. */
class AstNode : public rt::object_t {
 public:
  SPINE_AST_NODE(AstNode, rt::object_t, "ast.Node")
  /** Expose the fields of this node to @p v; the root has none. */
  virtual void VisitAttrs(AttrVisitor* v) {}
};

/** @brief Reference to any AST node. */
class AstRef : public rt::object_r {
  SPINE_AST_REF(AstRef, rt::object_r, AstNode)
};

/** Create node T from @p args and return it as reference class R. */
template <typename R, typename T, typename... Args>
R MakeNode(Args&&... args) {
  return R(rt::object_p<rt::object_t>(rt::MakeObject<T>(std::forward<Args>(args)...)));
}

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_NODE_H_
