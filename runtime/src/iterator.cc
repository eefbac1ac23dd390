// Iterator adapters. Each adapter owns its container through a McValue, so
// an Iterator alone keeps the container alive. Sequence adapters re-check
// bounds on every step (a list may shrink while iterated, as in Python);
// hash-table adapters compare the table version and raise RuntimeError if
// the size changed, as Python does for dicts and sets.
#include "spine/runtime/iterator.h"

#include "spine/runtime/dict.h"
#include "spine/runtime/list.h"
#include "spine/runtime/set.h"
#include "spine/runtime/str.h"
#include "spine/runtime/tuple.h"

namespace spine::runtime {
namespace {

class SequenceIteratorNode : public IteratorNode {
 public:
  explicit SequenceIteratorNode(McValue seq) : seq_(std::move(seq)) {}
  bool HasNext() const override { return pos_ < Data().size(); }
  McValue Next() override {
    const std::vector<McValue>& d = Data();
    if (pos_ >= d.size()) ThrowRuntimeError("iterator exhausted");
    return d[pos_++];
  }
  int64_t Distance() const override {
    size_t n = Data().size();
    return pos_ < n ? static_cast<int64_t>(n - pos_) : 0;
  }

 private:
  const std::vector<McValue>& Data() const {
    object_t* o = seq_.ObjectPtr();
    if (o->Index() == TypeIndex::RuntimeList) return static_cast<ListNode*>(o)->data;
    return static_cast<TupleNode*>(o)->data;
  }
  McValue seq_;
  size_t pos_ = 0;
};

class TableIteratorNode : public IteratorNode {
 public:
  TableIteratorNode(McValue owner, const HashTable* table, DictIterMode mode)
      : owner_(std::move(owner)), table_(table), mode_(mode), version_(table->version()), left_(table->size()) {
    Skip();
  }
  bool HasNext() const override {
    Check();
    return pos_ < table_->entries().size();
  }
  McValue Next() override {
    Check();
    const auto& es = table_->entries();
    if (pos_ >= es.size()) ThrowRuntimeError("iterator exhausted");
    const HashTable::Entry& e = es[pos_++];
    --left_;
    Skip();
    switch (mode_) {
      case DictIterMode::kKeys: return e.key;
      case DictIterMode::kValues: return e.value;
      case DictIterMode::kItems: return Tuple({e.key, e.value});
    }
    return McValue();
  }
  int64_t Distance() const override {
    Check();
    return static_cast<int64_t>(left_);
  }

 private:
  void Check() const {
    if (table_->version() != version_) ThrowRuntimeError("container changed size during iteration");
  }
  void Skip() {
    const auto& es = table_->entries();
    while (pos_ < es.size() && !es[pos_].live) ++pos_;
  }
  McValue owner_;
  const HashTable* table_;  // points into owner_'s node
  DictIterMode mode_;
  uint64_t version_;
  size_t pos_ = 0;
  size_t left_;
};

// Yields code points of a UTF-8 string as one-character strings.
class StrIteratorNode : public IteratorNode {
 public:
  explicit StrIteratorNode(McValue s) : s_(std::move(s)) { s_.TryStringView(&view_); }
  bool HasNext() const override { return pos_ < view_.size(); }
  McValue Next() override {
    if (pos_ >= view_.size()) ThrowRuntimeError("iterator exhausted");
    size_t n = CharLen(static_cast<unsigned char>(view_[pos_]));
    if (pos_ + n > view_.size()) n = view_.size() - pos_;
    McValue r(view_.substr(pos_, n));
    pos_ += n;
    return r;
  }
  int64_t Distance() const override {
    int64_t count = 0;
    for (size_t i = pos_; i < view_.size(); ++i) {
      if ((static_cast<unsigned char>(view_[i]) & 0xC0) != 0x80) ++count;
    }
    return count;
  }

 private:
  static size_t CharLen(unsigned char c) { return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }
  McValue s_;  // owns the bytes (immediate strings are copied into it)
  std::string_view view_;
  size_t pos_ = 0;
};

class GenericIteratorNode : public IteratorNode {
 public:
  GenericIteratorNode(McValue c, std::function<bool()> h, std::function<McValue()> n, std::function<int64_t()> d)
      : container_(std::move(c)), has_next_(std::move(h)), next_(std::move(n)), distance_(std::move(d)) {}
  bool HasNext() const override { return has_next_(); }
  McValue Next() override { return next_(); }
  int64_t Distance() const override { return distance_ ? distance_() : -1; }

 private:
  McValue container_;
  std::function<bool()> has_next_;
  std::function<McValue()> next_;
  std::function<int64_t()> distance_;
};

template <typename N, typename... A>
Iterator Wrap(A&&... a) {
  object_p<N> p = MakeObject<N>(std::forward<A>(a)...);
  return Iterator(object_p<object_t>(std::move(p)));
}

}  // namespace

Iterator Iterator::MakeIterator(const Any& it) {
  switch (it.type_index()) {
    case TypeIndex::RuntimeList:
    case TypeIndex::RuntimeTuple:
      return Wrap<SequenceIteratorNode>(McValue::CopyFrom(it));
    case TypeIndex::RuntimeDict: return MakeDictIterator(McValue::CopyFrom(it), DictIterMode::kKeys);
    case TypeIndex::RuntimeSet: {
      McValue owner = McValue::CopyFrom(it);
      const HashTable* t = &static_cast<SetNode*>(owner.ObjectPtr())->table;
      return Wrap<TableIteratorNode>(std::move(owner), t, DictIterMode::kKeys);
    }
    case TypeIndex::Str:
    case TypeIndex::RuntimeStr:
      return Wrap<StrIteratorNode>(McValue::CopyFrom(it));
    default: break;
  }
  if (object_t* o = it.ObjectPtr(); o && o->IsType<IteratorNode>()) {
    return Iterator(object_p<object_t>(o));
  }
  ThrowTypeError("'" + it.TypeName() + "' object is not iterable");
}

Iterator Iterator::MakeDictIterator(const McValue& dict, DictIterMode mode) {
  if (dict.type_index() != TypeIndex::RuntimeDict) ThrowTypeError("expected dict, got " + dict.TypeName());
  const HashTable* t = &static_cast<DictNode*>(dict.ObjectPtr())->table;
  return Wrap<TableIteratorNode>(dict, t, mode);
}

Iterator Iterator::MakeGenericIterator(McValue container, std::function<bool()> has_next,
                                       std::function<McValue()> next, std::function<int64_t()> distance) {
  if (!has_next || !next) ThrowValueError("generic iterator needs has_next and next callbacks");
  return Wrap<GenericIteratorNode>(std::move(container), std::move(has_next), std::move(next), std::move(distance));
}

}  // namespace spine::runtime
