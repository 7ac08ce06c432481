# once_check.jq: checks one `opsconsole --once VIEW --json` document (the
# input) against docs/script-mode.schema.json (--slurpfile schema). Prints
# one line per problem ("rows[3].reason: number where string|null was
# expected"); nothing when the document has the documented shape.
#   jq -r --slurpfile schema docs/script-mode.schema.json -f once_check.jq out.json

def problems($v; $spec; $path):
  if ($spec | type) == "string" then
    if ($spec | startswith("=")) then
      ($spec[1:] | split("|")) as $allowed
      | if ($v == null and ($allowed | index("null")) != null) then empty
        elif ($v | type) == "string" and ($allowed | index($v)) != null then empty
        else "\($path): \($v | tojson) is not one of \($spec[1:])" end
    elif ($spec | split("|") | index($v | type)) != null then empty
    else "\($path): \($v | type) where \($spec) was expected" end
  elif ($spec | type) == "array" then
    if ($v | type) != "array" then "\($path): \($v | type) where an array was expected"
    else range(0; $v | length) as $i | problems($v[$i]; $spec[0]; "\($path)[\($i)]") end
  else
    if ($v | type) != "object" then "\($path): \($v | type) where an object was expected"
    else
      ($spec | keys_unsorted[] as $k
        | if ($v | has($k)) then problems($v[$k]; $spec[$k]; (if $path == "" then $k else "\($path).\($k)" end))
          else "\(if $path == "" then "document" else $path end): missing field \($k)" end),
      ($v | keys_unsorted[] as $k | select(($spec | has($k)) | not)
        | "\(if $path == "" then "document" else $path end): field \($k) is not documented")
    end
  end;

$schema[0] as $s
| if (type != "object") or ((.view | type) != "string") or ($s.views[.view] == null) then
    "not a document of a known view"
  else
    . as $doc
    | ($s.document + $s.views[.view].document + {rows: [$s.views[.view].row]}) as $spec
    | problems($doc; $spec; "")
  end
