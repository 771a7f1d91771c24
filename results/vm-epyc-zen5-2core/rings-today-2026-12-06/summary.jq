# summary.jq: from a `scanbench pg` report of a ring sweep with the server's default first,
# one line per server: its best setting against its default (the paired ratio and its
# interval), and what the default costs against it. jq -r -f summary.jq REPORT.json
def server: .postgresql.server_version | split(" ")[0];
def setting: .name | capture("(?<k>buffer_usage_limit|effective_io_concurrency)=(?<v>[^ ]+)") | .v;
def named: .name | capture("(?<k>buffer_usage_limit|effective_io_concurrency)=(?<v>[^ ]+)") | "\(.k) \(.v)";
(.runs | map({key: .name, value: .}) | from_entries) as $runs
| [.analysis.comparisons[] | select(($runs[.b] | setting) == "default"
                                    and ($runs[.a] | server) == ($runs[.b] | server))] as $vs
| [.runs[] | server] | unique[] as $s
| ($vs | map(select(($runs[.a] | server) == $s)) | max_by(.ratio)) as $best
| if $best.ratio > 1 then
    "\($s): best \($runs[$best.a] | named) (\($runs[$best.a].ring_size / 1024 | floor)kB ring), \($best.ratio * 100 | round / 100)x the default [\($best.lo * 100 | round / 100), \($best.hi * 100 | round / 100)], \($best.call); the default (\($runs[$best.b].ring_size / 1024 | floor)kB) runs at \(1 / $best.ratio * 100 | round)% of it [\(1 / $best.hi * 100 | round)%, \(1 / $best.lo * 100 | round)%]"
  else
    "\($s): no setting beats the default (\($runs[$best.b].ring_size / 1024 | floor)kB ring): the closest, \($runs[$best.a] | named), \($best.ratio * 100 | round / 100)x [\($best.lo * 100 | round / 100), \($best.hi * 100 | round / 100)]"
  end
