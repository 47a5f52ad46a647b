#!/bin/bash
# Apollo iOS 3.0's row store with its statements cached (its execution plan's OPT-001:
# "Prepared-statement caching in ApolloSQLiteDatabase", apollo-ios/Design/cache-rewrite-phase1-execution.md
# on cache-rewrite/phase-1a-adr-0007-amend-ii), as a second variant beside the code as written, for
# docs/layouts.md's comparisons (issue 54 item 4). Apollo's code is never in our repository: this
# edits a scratch copy of the harness.
#
#   scripts/apollo3-opt001.sh DIR      DIR: a copy of the apollo3 harness after its setup3.sh
#
# Adds to DIR a module ApolloSQLiteCached (DIR/Sources/ApolloSQLite copied, its
# ApolloSQLiteDatabase.swift edited) and an executable tier2rows-cached (tier2rows's main.swift
# importing ApolloSQLiteCached), beside ApolloSQLite and tier2rows, which stay as Apollo wrote them:
#   cd DIR && swift build -c release --product tier2rows-cached
# The edit, and nothing else: `prepareStatement` keeps each SQL text's statement after its first
# prepare and hands it out again after sqlite3_reset and sqlite3_clear_bindings; each caller's
# `defer { sqlite3_finalize(stmt) }` becomes a release that resets a cached statement (finalizing
# only one prepared while the cached one of its text was still running: a nested call); the cached
# statements are finalized before the connection closes. Statement texts, their order, the
# transactions and the `exec` calls (BEGIN, COMMIT) are unchanged. The plan's second half (one
# seed builder for the three cascade walks) changes no statement and is not done.
set -eu
[ $# -eq 1 ] || { echo "usage: scripts/apollo3-opt001.sh DIR (a copy of the apollo3 harness after setup3.sh)" >&2; exit 64; }
case "$1" in -*) echo "apollo3-opt001.sh: unknown option '$1' (usage: scripts/apollo3-opt001.sh DIR)" >&2; exit 64 ;; esac
DIR=$1
f=$DIR/Sources/ApolloSQLite/ApolloSQLiteDatabase.swift
[ -f "$f" ] && [ -f "$DIR/Sources/tier2rows/main.swift" ] && [ -f "$DIR/Package.swift" ] \
  || { echo "apollo3-opt001.sh: $DIR is no apollo3 harness copy after setup3.sh (no $f)" >&2; exit 64; }
command -v python3 >/dev/null || { echo "apollo3-opt001.sh: python3 is not on the PATH" >&2; exit 64; }
rm -rf "$DIR/Sources/ApolloSQLiteCached" "$DIR/Sources/tier2rows-cached"
cp -R "$DIR/Sources/ApolloSQLite" "$DIR/Sources/ApolloSQLiteCached"
mkdir -p "$DIR/Sources/tier2rows-cached"
python3 - "$DIR" <<'PY'
import re, sys
d = sys.argv[1]
def edit(path, pairs):
    s = open(path).read()
    for old, new, count in pairs:
        n = s.count(old)
        if n != count:
            sys.exit(f"apollo3-opt001.sh: {path}: expected {count} of {old.strip()[:60]!r}, found {n} (another Apollo revision?)")
        s = s.replace(old, new)
    return s
db = f"{d}/Sources/ApolloSQLiteCached/ApolloSQLiteDatabase.swift"
s = edit(db, [
    ("  private var db: OpaquePointer?\n",
     "  private var db: OpaquePointer?\n"
     "  // OPT-001 (cachebench's scripts/apollo3-opt001.sh): each SQL text's statement, prepared once.\n"
     "  private var statementCache: [String: OpaquePointer] = [:]\n"
     "  private var cachedStatements: Set<OpaquePointer> = []\n", 1),
    ("  deinit {\n    sqlite3_close(db)\n",
     "  deinit {\n    finalizeCachedStatements()\n    sqlite3_close(db)\n", 1),
    ("    dbQueue.sync {\n      sqlite3_close(db)\n",
     "    dbQueue.sync {\n      finalizeCachedStatements()\n      sqlite3_close(db)\n", 1),
    ("""  private func prepareStatement(_ sql: String, errorMessage: @autoclosure () -> String) throws -> OpaquePointer? {
    var stmt: OpaquePointer?
    let result = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
    if result != SQLITE_OK {
      throw SQLiteError.prepare(message: "\\(errorMessage()): \\(sqliteErrorMessage())", resultCode: result)
    }
    return stmt
  }
""", """  private func prepareStatement(_ sql: String, errorMessage: @autoclosure () -> String) throws -> OpaquePointer? {
    if let cached = statementCache[sql], sqlite3_stmt_busy(cached) == 0 {
      sqlite3_reset(cached)
      sqlite3_clear_bindings(cached)
      return cached
    }
    var stmt: OpaquePointer?
    let result = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
    if result != SQLITE_OK {
      throw SQLiteError.prepare(message: "\\(errorMessage()): \\(sqliteErrorMessage())", resultCode: result)
    }
    if let stmt, statementCache[sql] == nil {
      statementCache[sql] = stmt
      cachedStatements.insert(stmt)
    }
    return stmt
  }

  /// OPT-001: a cached statement is reset for its next use (which ends its read or write of the
  /// file, as finalize did); one prepared beside a busy cached statement is finalized.
  private func releaseStatement(_ stmt: OpaquePointer?) {
    guard let stmt else { return }
    if cachedStatements.contains(stmt) { sqlite3_reset(stmt) } else { sqlite3_finalize(stmt) }
  }

  private func finalizeCachedStatements() {
    for stmt in cachedStatements { sqlite3_finalize(stmt) }
    cachedStatements.removeAll()
    statementCache.removeAll()
  }
""", 1),
])
n = s.count("defer { sqlite3_finalize(stmt) }")
if n < 10:
    sys.exit(f"apollo3-opt001.sh: {db}: expected the callers' `defer {{ sqlite3_finalize(stmt) }}`, found {n}")
s = s.replace("defer { sqlite3_finalize(stmt) }", "defer { releaseStatement(stmt) }")
if s.count("sqlite3_finalize(") != 2:   # releaseStatement's and finalizeCachedStatements' alone
    sys.exit(f"apollo3-opt001.sh: {db}: a finalize the edit does not know remains")
open(db, "w").write(s)
main = edit(f"{d}/Sources/tier2rows/main.swift", [
    ("@_spi(Execution) import ApolloSQLite\n", "@_spi(Execution) import ApolloSQLiteCached\n", 1)])
open(f"{d}/Sources/tier2rows-cached/main.swift", "w").write(main)
pkg = f"{d}/Package.swift"
p = open(pkg).read()
if "tier2rows-cached" not in p:
    p += """
// Added by cachebench's scripts/apollo3-opt001.sh: Apollo's row store with its statements cached
// (OPT-001), beside the code as written.
package.targets.append(.target(name: "ApolloSQLiteCached", dependencies: ["Apollo", "SQLite3"],
                               path: "Sources/ApolloSQLiteCached", swiftSettings: [.swiftLanguageMode(.v5)]))
package.targets.append(.executableTarget(name: "tier2rows-cached", dependencies: ["Apollo", "ApolloSQLiteCached", "SQLite3"],
                                         path: "Sources/tier2rows-cached", swiftSettings: [.swiftLanguageMode(.v5)]))
"""
    open(pkg, "w").write(p)
PY
echo "OPT-001 variant added: $DIR/Sources/ApolloSQLiteCached, product tier2rows-cached ($(grep -c 'releaseStatement(stmt)' "$DIR/Sources/ApolloSQLiteCached/ApolloSQLiteDatabase.swift") statements released, not finalized)"
