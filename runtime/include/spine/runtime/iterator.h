/**
 * @file iterator.h
 * @brief The type-erased runtime Iterator. Every iterator holds its
 * container in a McValue, so the container lives as long as the iterator.
 */
#ifndef SPINE_RUNTIME_ITERATOR_H_
#define SPINE_RUNTIME_ITERATOR_H_

#include <functional>

#include "spine/runtime/mc_value.h"

namespace spine::runtime {

/** @brief Protocol of every runtime iterator. */
class IteratorNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::RuntimeIterator;  /**< Fixed index. */
  static constexpr std::string_view NAME = "RuntimeIterator";    /**< Type name. */
  SPINE_DEFINE_TYPEINDEX(IteratorNode, object_t)
  /** True if Next() will produce a value. */
  virtual bool HasNext() const = 0;
  /** The next value; throws RuntimeError when exhausted or when a dict/set changed size. */
  virtual McValue Next() = 0;
  /** Number of values left. */
  virtual int64_t Distance() const = 0;
};

/** What a dict iterator yields. */
enum class DictIterMode { kKeys, kValues, kItems };

/** @brief Reference to an IteratorNode. */
class Iterator : public object_r {
 public:
  using ContainerType = IteratorNode;  /**< Node type. */
  /** Null iterator (use the factories). */
  Iterator() = default;
  /** Internal: adopt a node already checked to be an IteratorNode. */
  explicit Iterator(object_p<object_t> node) noexcept : object_r(std::move(node)) {}

  /**
   * @brief Iterator over any iterable runtime value, choosing the adapter by
   * runtime type: List and Tuple (elements), Dict (keys, as Python), Set,
   * string (code points, as one-character strings) and Iterator (itself).
   * @throws Error(kTypeError) "'int' object is not iterable" otherwise.
   */
  static Iterator MakeIterator(const Any& iterable);
  /** Iterator over a dict's keys, values or (key, value) tuples. */
  static Iterator MakeDictIterator(const McValue& dict, DictIterMode mode);
  /**
   * @brief Iterator from callbacks; @p container is kept alive by the
   * iterator and is what the callbacks should read.
   */
  static Iterator MakeGenericIterator(McValue container, std::function<bool()> has_next,
                                      std::function<McValue()> next, std::function<int64_t()> distance);

  /** See IteratorNode::HasNext. */
  bool HasNext() const { return NodeOf<IteratorNode>(*this)->HasNext(); }
  /** See IteratorNode::Next. */
  McValue Next() const { return NodeOf<IteratorNode>(*this)->Next(); }
  /** See IteratorNode::Distance. */
  int64_t Distance() const { return NodeOf<IteratorNode>(*this)->Distance(); }
};

}  // namespace spine::runtime

#endif  // SPINE_RUNTIME_ITERATOR_H_
