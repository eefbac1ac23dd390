package tracehtml

import "strings"

// callSites finds, for each tool named in tools, the lines of source (from
// 1) where the program calls it: a name followed by "(" outside strings and
// comments, not an attribute (x.name) and not a definition (def name). The
// trace does not say which line made a call, so a tool called on several
// lines has each of them as candidates; a call inside an f-string's braces
// is not seen.
func callSites(source string, tools map[string]bool) map[string][]int {
	sites := map[string][]int{}
	s := scanner{src: source, line: 1}
	previous := "" // the last token: "." or "def" make the next name no call
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '\n':
			s.line++
			s.pos++
		case c == '#':
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
		case c == '"' || c == '\'':
			s.skipString()
			previous = "string"
		case isNameStart(c):
			start, line := s.pos, s.line
			for s.pos < len(s.src) && isNameChar(s.src[s.pos]) {
				s.pos++
			}
			name := s.src[start:s.pos]
			if s.pos < len(s.src) && (s.src[s.pos] == '"' || s.src[s.pos] == '\'') && isStringPrefix(name) {
				s.skipString()
				previous = "string"
				continue
			}
			if tools[name] && previous != "." && previous != "def" && s.nextIsParen() {
				if lines := sites[name]; len(lines) == 0 || lines[len(lines)-1] != line {
					sites[name] = append(lines, line)
				}
			}
			previous = name
		case c == ' ' || c == '\t' || c == '\r' || c == '\\':
			s.pos++
		default:
			previous = string(c)
			s.pos++
		}
	}
	return sites
}

type scanner struct {
	src  string
	pos  int
	line int
}

// skipString skips a string literal starting at pos (its quote), counting
// the newlines of a triple-quoted one. A backslash skips the next character
// in raw strings too: r"\"" does not end at its second quote either.
func (s *scanner) skipString() {
	quote := s.src[s.pos]
	triple := strings.HasPrefix(s.src[s.pos:], strings.Repeat(string(quote), 3))
	if triple {
		s.pos += 3
	} else {
		s.pos++
	}
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '\\':
			if s.pos+1 < len(s.src) && s.src[s.pos+1] == '\n' {
				s.line++
			}
			s.pos += 2
		case c == '\n':
			s.line++
			s.pos++
			if !triple {
				return // an unterminated string ends with its line
			}
		case c == quote:
			if !triple {
				s.pos++
				return
			}
			if strings.HasPrefix(s.src[s.pos:], strings.Repeat(string(quote), 3)) {
				s.pos += 3
				return
			}
			s.pos++
		default:
			s.pos++
		}
	}
}

// nextIsParen says whether the next non-blank character on the line is "(".
func (s *scanner) nextIsParen() bool {
	for i := s.pos; i < len(s.src); i++ {
		switch s.src[i] {
		case ' ', '\t':
			continue
		case '(':
			return true
		}
		return false
	}
	return false
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isNameChar(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

func isStringPrefix(name string) bool {
	if len(name) > 2 {
		return false
	}
	for _, c := range strings.ToLower(name) {
		if !strings.ContainsRune("rbfu", c) {
			return false
		}
	}
	return true
}
