# `make help`: every .PHONY target of the Makefile in its order, each with the comment block
# right above its rule, wrapped to the terminal's usual width. A target without one shows
# "(no comment above its rule)", which test/e2e/makeHelp.test.ts refuses.
BEGIN { width = 100; indent = 16 }

function flush_comment() { comment = "" }

function print_wrapped(name, text,    words, n, i, line, pad) {
  pad = sprintf("%" indent "s", "")
  line = sprintf("  %-" (indent - 2) "s", name)
  if (length(name) > indent - 3) { print "  " name; line = pad }
  n = split(text, words, " ")
  for (i = 1; i <= n; i++) {
    if (length(line) + 1 + length(words[i]) > width && line != pad) { print line; line = pad }
    line = line (line ~ / $/ ? "" : " ") words[i]
  }
  print line
}

/^\.PHONY:/ {
  for (i = 2; i <= NF; i++) phony[$i] = 1
  flush_comment()
  next
}
/^#/ {
  text = $0
  sub(/^# ?/, "", text)
  comment = comment (comment == "" ? "" : " ") text
  next
}
# A rule (not a variable assignment): "name: prerequisites".
/^[A-Za-z0-9_.-]+:([^=]|$)/ {
  name = $0
  sub(/:.*/, "", name)
  if (name in phony && !(name in shown)) {
    order[++count] = name
    about[name] = comment == "" ? "(no comment above its rule)" : comment
    shown[name] = 1
  }
  flush_comment()
  next
}
{ flush_comment() }

END {
  print "make <target>, one of:"
  for (i = 1; i <= count; i++) print_wrapped(order[i], about[order[i]])
  for (name in phony) if (!(name in shown)) print_wrapped(name, "(no rule in this Makefile)")
}
