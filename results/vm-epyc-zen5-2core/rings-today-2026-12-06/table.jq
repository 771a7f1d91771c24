# table.jq: a `scanbench pg` ring sweep (the server's default first) as a markdown table: a
# row per setting, a column per server: median MB/s, the ring, and the ratio to that server's
# default paired by round [95% interval, Bonferroni] with its call. jq -r -f table.jq REPORT.json
def server: .postgresql.server_version | split(" ")[0];
def setting: .name | capture("(?<k>buffer_usage_limit|effective_io_concurrency)=(?<v>[^ ]+)") | .v;
def kb: if . >= 1048576 and . % 1048576 == 0 then "\(. / 1048576)MB" elif . > 0 then "\(. / 1024 | floor)kB" else "none" end;
def r2: . * 100 | round / 100;
(.runs | map({key: .name, value: .}) | from_entries) as $runs
| (.analysis.comparisons | map(select(($runs[.b] | setting) == "default"
                                     and ($runs[.a] | server) == ($runs[.b] | server)))
   | map({key: .a, value: .}) | from_entries) as $vs
| ([.runs[] | server] | unique) as $servers
| ([.runs[] | setting] | reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end)) as $settings
| "| setting | " + ($servers | map("PostgreSQL " + .) | join(" | ")) + " |",
  "|---|" + ($servers | map("---|") | join("")),
  ($settings[] as $set
   | "| \($set) | " + ($servers | map(. as $s
       | ([$runs[] | select(server == $s and setting == $set)] | first) as $r
       | if $r == null then "" else
           "\($r.mbps.median | round) (\(if $r.policy == "ring" then ($r.ring_size | kb) else "no ring" end))"
           + (if $vs[$r.name] then ", \($vs[$r.name].ratio | r2)x [\($vs[$r.name].lo | r2), \($vs[$r.name].hi | r2)] \($vs[$r.name].call)" else "" end)
         end) | join(" | ")) + " |")
