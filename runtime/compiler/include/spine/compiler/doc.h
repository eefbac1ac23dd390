/**
 * @file doc.h
 * @brief Doc: text built from structured atoms (text, line break, indented
 * block), so that nested constructs compose without knowing the current
 * indentation; layout happens once, in str().
 */
#ifndef SPINE_COMPILER_DOC_H_
#define SPINE_COMPILER_DOC_H_

#include <memory>
#include <string>
#include <vector>

namespace spine::compiler {

/** @brief A document: a sequence of atoms. Cheap to copy (shared atoms). */
class Doc {
 public:
  /** An empty document. */
  Doc() = default;
  /** Append text (must not contain a newline; use NewLine). */
  Doc& operator<<(const std::string& text);
  /** Append text. */
  Doc& operator<<(const char* text) { return *this << std::string(text); }
  /** Append another document. */
  Doc& operator<<(const Doc& other);
  /** A line break at the current indentation. */
  static Doc NewLine();
  /** @p body with its line breaks indented by @p spaces more than the surroundings. */
  static Doc Indent(int spaces, const Doc& body);
  /** Lay out the document. */
  std::string str() const;

 private:
  struct Atom {
    enum Kind { kText, kLine, kIndent } kind;
    std::string text;                   // kText
    int spaces = 0;                     // kIndent
    std::shared_ptr<const Doc> body;    // kIndent
  };
  void Render(std::string* out, int indent) const;
  std::vector<Atom> atoms_;
};

}  // namespace spine::compiler

#endif  // SPINE_COMPILER_DOC_H_
