// Doc layout.
#include "spine/compiler/doc.h"

#include "spine/runtime/error.h"

namespace spine::compiler {

Doc& Doc::operator<<(const std::string& text) {
  if (text.find('\n') != std::string::npos) ::spine::runtime::ThrowValueError("Doc text may not contain a newline");
  if (!text.empty()) atoms_.push_back(Atom{Atom::kText, text, 0, nullptr});
  return *this;
}

Doc& Doc::operator<<(const Doc& other) {
  atoms_.insert(atoms_.end(), other.atoms_.begin(), other.atoms_.end());
  return *this;
}

Doc Doc::NewLine() {
  Doc d;
  d.atoms_.push_back(Atom{Atom::kLine, {}, 0, nullptr});
  return d;
}

Doc Doc::Indent(int spaces, const Doc& body) {
  Doc d;
  d.atoms_.push_back(Atom{Atom::kIndent, {}, spaces, std::make_shared<const Doc>(body)});
  return d;
}

void Doc::Render(std::string* out, int indent) const {
  for (const Atom& a : atoms_) {
    switch (a.kind) {
      case Atom::kText: *out += a.text; break;
      case Atom::kLine: *out += '\n'; out->append(static_cast<size_t>(indent), ' '); break;
      case Atom::kIndent: a.body->Render(out, indent + a.spaces); break;
    }
  }
}

std::string Doc::str() const {
  std::string out;
  Render(&out, 0);
  return out;
}

}  // namespace spine::compiler
