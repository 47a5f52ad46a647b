// A pattern delete both ways on one rows file (docs/stores.md#where-rows-still-differs-from-apollos-code):
// Apollo iOS 3.0's statements (`deleteRecords(matchingKey:)` on cache-rewrite/phase-1a-cascade-delete,
// ApolloSQLiteDatabase.swift: a recursive CTE from the matching records' pointers, then
// `DELETE ... NOT LIKE '%.$[%]'`, in one transaction) against ours (FieldRowStore.deleteRows(matching:):
// where the file holds sub-records a `SELECT` of the matching records' pointers, one
// `DELETE ... LIKE ... AND field_name <> '$'`, then one `DELETE` a sub-record, in one transaction).
// Each statement's text is copied from its source, binding as each binds. scripts/pattern-delete
// builds it and runs it.
//
//   pattern_delete make-tier2 FILE                 writes Apollo's Tier-2 pattern-delete store as rows
//   pattern_delete run FILE PATTERN RUNS WORKDIR   the delete both ways, RUNS times each, in turns
//
// `run` copies FILE afresh (and syncs the copy) before each delete, opens it as both stores do
// (SQLite's defaults: rollback journal, synchronous FULL; no memory map), times BEGIN to COMMIT,
// and reads SQLite's counters of each statement (sqlite3_stmt_status: VM steps, full-scan steps,
// sorts) and of the connection (pages written, SQLITE_DBSTATUS_CACHE_WRITE). Three ways: Apollo's;
// ours as the store runs it on this file (the pointer `SELECT` only when the file holds a sub-record,
// as the store knows at its opening); ours with the pointer `SELECT` always (a file with nested
// lists). Every run of every way must delete the same rows (exit 1 otherwise). Prints one line a
// way: rows deleted, p50 and min of the runs in ms, the counters (the same every run), and the rows
// left.
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

static sqlite3 *db;

static void fail(const char *what) {
  fprintf(stderr, "pattern_delete: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
  exit(1);
}
static void exec(const char *sql) {
  if (sqlite3_exec(db, sql, 0, 0, 0) != SQLITE_OK) fail(sql);
}
static sqlite3_stmt *prepare(const char *sql) {
  sqlite3_stmt *statement;
  if (sqlite3_prepare_v2(db, sql, -1, &statement, 0) != SQLITE_OK) fail(sql);
  return statement;
}
static long long scalar(const char *sql) {
  sqlite3_stmt *statement = prepare(sql);
  if (sqlite3_step(statement) != SQLITE_ROW) fail(sql);
  long long value = sqlite3_column_int64(statement, 0);
  sqlite3_finalize(statement);
  return value;
}
static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// MARK: Apollo's Tier-2 pattern-delete store, as rows

// 10,000 `User_<i>` of ten string fields `field_<f>` = `value_<i>_<f>`, 1,000 `Other_<i>` of
// `field_0` = `value_<i>` (BenchmarkWorkloads' records), the rows our `rows` layout and Apollo's
// writer make of them (a scalar at position -1 in its typed column, written_at 0), in one
// transaction in key order, as the store's one merge of them writes them.
static int make_tier2(const char *path) {
  unlink(path);
  if (sqlite3_open(path, &db) != SQLITE_OK) fail(path);
  exec("CREATE TABLE records(cache_key TEXT NOT NULL, field_name TEXT NOT NULL, position INTEGER NOT NULL DEFAULT -1, "
       "int_value INTEGER, string_value TEXT, float_value REAL, bool_value INTEGER, child_key_value TEXT, "
       "custom_scalar_value TEXT, written_at INTEGER NOT NULL, PRIMARY KEY (cache_key, field_name, position)) WITHOUT ROWID");
  exec("CREATE TABLE schema_metadata(key TEXT PRIMARY KEY, value TEXT)");
  exec("INSERT INTO schema_metadata VALUES ('version', '3.0')");
  exec("BEGIN");
  // Key order: SQLite's BINARY order of the key, then the field name.
  exec("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9999), f(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM f WHERE j < 9) "
       "INSERT INTO records(cache_key, field_name, position, string_value, written_at) "
       "SELECT k, field, -1, value, 0 FROM ("
       "  SELECT 'User_' || i AS k, 'field_' || j AS field, 'value_' || i || '_' || j AS value FROM n, f"
       "  UNION ALL SELECT 'Other_' || i, 'field_0', 'value_' || i FROM n WHERE i < 1000"
       ") ORDER BY k, field");
  exec("COMMIT");
  printf("%s: %lld records, %lld rows\n", path, scalar("SELECT count(DISTINCT cache_key) FROM records"),
         scalar("SELECT count(*) FROM records"));
  sqlite3_close(db);
  return 0;
}

// MARK: The two ways

// Apollo's (ApolloSQLiteDatabase.swift, cache-rewrite/phase-1a-cascade-delete: deleteRecords(matchingKey:)
// and cascadeDeletePatternMatchedSyntheticDescendants, SQLiteSchema's names and `%.$[%]` substituted).
static const char *apollo_cascade =
  "WITH RECURSIVE descendants(cache_key) AS (\n"
  "  SELECT r.child_key_value FROM records r\n"
  "  WHERE r.cache_key LIKE ? COLLATE NOCASE ESCAPE '\\'\n"
  "    AND r.cache_key NOT LIKE '%.$[%]' ESCAPE '\\'\n"
  "    AND r.child_key_value IS NOT NULL\n"
  "    AND r.child_key_value LIKE '%.$[%]' ESCAPE '\\'\n"
  "  UNION\n"
  "  SELECT r.child_key_value FROM records r\n"
  "  JOIN descendants d ON r.cache_key = d.cache_key\n"
  "  WHERE r.child_key_value IS NOT NULL\n"
  "    AND r.child_key_value LIKE '%.$[%]' ESCAPE '\\'\n"
  ")\n"
  "DELETE FROM records\n"
  "WHERE cache_key IN (SELECT cache_key FROM descendants)";
static const char *apollo_delete =
  "DELETE FROM records\n"
  "WHERE cache_key LIKE ? COLLATE NOCASE ESCAPE '\\'\n"
  "  AND cache_key NOT LIKE '%.$[%]' ESCAPE '\\'";
// Ours (FieldRowStore.swift: RowSQL(.apollo), the format of the `rows` layout, and deleteMatchingSQL).
static const char *ours_pointers =
  "SELECT child_key_value FROM records WHERE cache_key LIKE ? ESCAPE '\\' AND field_name <> '$' AND instr(child_key_value, '.$[') > 0";
static const char *ours_delete = "DELETE FROM records WHERE cache_key LIKE ? ESCAPE '\\' AND field_name <> '$'";
static const char *ours_sub_record =
  "DELETE FROM records WHERE cache_key = ? AND field_name = '$' RETURNING "
  "length(CAST(cache_key AS BLOB)) + length(CAST(field_name AS BLOB)) + ifnull(length(CAST(string_value AS BLOB)), 0)\n"
  "      + ifnull(length(CAST(child_key_value AS BLOB)), 0) + ifnull(length(CAST(custom_scalar_value AS BLOB)), 0)\n"
  "      + 8 * (int_value IS NOT NULL) + 8 * (float_value IS NOT NULL) + (bool_value IS NOT NULL) + 12, "
  "CASE WHEN instr(child_key_value, '.$[') > 0 THEN child_key_value END";

enum { APOLLO, OURS, OURS_POINTERS, WAYS };
static const char *way_names[WAYS] = {"Apollo's (CTE, DELETE ... NOT LIKE)", "ours, as the store runs it here",
                                      "ours, with the pointer SELECT (a file with nested lists)"};

typedef struct {
  long long deleted, vm_steps, fullscan_steps, sorts, page_writes, left;
} Counts;

static void count(sqlite3_stmt *statement, Counts *counts) {
  counts->vm_steps += sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 0);
  counts->fullscan_steps += sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_FULLSCAN_STEP, 0);
  counts->sorts += sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_SORT, 0);
}
static void step_done(sqlite3_stmt *statement, Counts *counts) {
  int rc = sqlite3_step(statement);
  if (rc != SQLITE_DONE) fail("step");
  counts->deleted += sqlite3_changes(db);
  count(statement, counts);
  sqlite3_finalize(statement);
}

// The LIKE pattern both bind: `%`, the pattern with `\`, `%` and `_` escaped by a `\`, `%`.
static void like_pattern(const char *pattern, char *out, size_t size) {
  size_t n = 0;
  out[n++] = '%';
  for (const char *c = pattern; *c && n + 3 < size; c++) {
    if (*c == '\\' || *c == '%' || *c == '_') out[n++] = '\\';
    out[n++] = *c;
  }
  out[n++] = '%';
  out[n] = 0;
}

static void delete_apollo(const char *like, Counts *counts) {
  exec("BEGIN TRANSACTION");
  sqlite3_stmt *cascade = prepare(apollo_cascade);
  sqlite3_bind_text(cascade, 1, like, -1, SQLITE_TRANSIENT);
  step_done(cascade, counts);
  sqlite3_stmt *statement = prepare(apollo_delete);
  sqlite3_bind_text(statement, 1, like, -1, SQLITE_TRANSIENT);
  step_done(statement, counts);
  exec("COMMIT TRANSACTION");
}

static void delete_ours(const char *like, int pointers_select, Counts *counts) {
  exec("BEGIN IMMEDIATE");
  char **nested = 0;
  size_t nested_count = 0, nested_capacity = 0;
  if (pointers_select) {
    sqlite3_stmt *pointers = prepare(ours_pointers);
    sqlite3_bind_text(pointers, 1, like, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(pointers)) == SQLITE_ROW) {
      if (nested_count == nested_capacity) nested = realloc(nested, (nested_capacity = 2 * nested_capacity + 16) * sizeof *nested);
      nested[nested_count++] = strdup((const char *)sqlite3_column_text(pointers, 0));
    }
    if (rc != SQLITE_DONE) fail("pointers");
    count(pointers, counts);
    sqlite3_finalize(pointers);
  }
  sqlite3_stmt *statement = prepare(ours_delete);
  sqlite3_bind_text(statement, 1, like, -1, SQLITE_TRANSIENT);
  step_done(statement, counts);
  // The sub-records, and theirs, one statement each (deleteSubRecords).
  sqlite3_stmt *sub = nested_count ? prepare(ours_sub_record) : 0;
  while (nested_count) {
    char *key = nested[--nested_count];
    sqlite3_bind_text(sub, 1, key, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(sub)) == SQLITE_ROW) {
      counts->deleted++;
      if (sqlite3_column_type(sub, 1) != SQLITE_NULL) {
        if (nested_count == nested_capacity) nested = realloc(nested, (nested_capacity = 2 * nested_capacity + 16) * sizeof *nested);
        nested[nested_count++] = strdup((const char *)sqlite3_column_text(sub, 1));
      }
    }
    if (rc != SQLITE_DONE) fail("sub-record");
    sqlite3_reset(sub);
    free(key);
  }
  if (sub) {
    count(sub, counts);
    sqlite3_finalize(sub);
  }
  free(nested);
  exec("COMMIT");
}

// MARK: Running

static void copy_file(const char *from, const char *to) {
  int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || out < 0) fail("copy: open");
  static char buffer[1 << 20];
  ssize_t n;
  while ((n = read(in, buffer, sizeof buffer)) > 0)
    if (write(out, buffer, n) != n) fail("copy: write");
  if (n < 0 || fsync(out) != 0) fail("copy: read or sync");
  close(in);
  close(out);
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int run(const char *file, const char *pattern, int runs, const char *workdir) {
  char like[1024], copy[4096], journal[4200];
  like_pattern(pattern, like, sizeof like);
  snprintf(copy, sizeof copy, "%s/pattern-delete-copy.sqlite", workdir);
  snprintf(journal, sizeof journal, "%s-journal", copy);
  double *ms = calloc((size_t)runs * WAYS, sizeof *ms);
  Counts first[WAYS];
  long long records = 0, rows = 0;
  int has_sub_records = 0;
  for (int r = 0; r < runs; r++) {
    for (int way = 0; way < WAYS; way++) {
      unlink(journal);
      copy_file(file, copy);
      if (sqlite3_open_v2(copy, &db, SQLITE_OPEN_READWRITE, 0) != SQLITE_OK) fail(copy);
      if (r == 0 && way == 0) {
        records = scalar("SELECT count(DISTINCT cache_key) FROM records WHERE field_name <> '$'");
        rows = scalar("SELECT count(*) FROM records");
      }
      // What the store knows at its opening (FieldRowStore: hadSubRecords), untimed.
      has_sub_records = (int)scalar("SELECT EXISTS (SELECT 1 FROM records WHERE field_name = '$')");
      Counts counts = {0};
      int writes_before, unused;
      sqlite3_db_status(db, SQLITE_DBSTATUS_CACHE_WRITE, &writes_before, &unused, 1);
      double start = now_ms();
      if (way == APOLLO) delete_apollo(like, &counts);
      else delete_ours(like, way == OURS_POINTERS || has_sub_records, &counts);
      ms[way * runs + r] = now_ms() - start;
      int writes;
      sqlite3_db_status(db, SQLITE_DBSTATUS_CACHE_WRITE, &writes, &unused, 0);
      counts.page_writes = writes;
      counts.left = scalar("SELECT count(*) FROM records");
      sqlite3_close(db);
      db = 0;
      if (r == 0) first[way] = counts;
      if (counts.deleted != first[APOLLO].deleted || counts.left != first[APOLLO].left) {
        fprintf(stderr, "pattern_delete: run %d: %s deleted %lld rows (%lld left), Apollo's %lld (%lld left)\n", r + 1,
                way_names[way], counts.deleted, counts.left, first[APOLLO].deleted, first[APOLLO].left);
        return 1;
      }
    }
  }
  unlink(copy);
  unlink(journal);
  printf("file %s: %lld records, %lld rows; pattern \"%s\" (LIKE '%s'); %d runs a way, in turns, each on a fresh copy; SQLite %s\n",
         file, records, rows, pattern, like, runs, sqlite3_libversion());
  printf("| way | rows deleted | rows left | p50 ms | min ms | VM steps | full-scan steps | sorts | pages written |\n");
  printf("|---|---|---|---|---|---|---|---|---|\n");
  for (int way = 0; way < WAYS; way++) {
    double *samples = ms + way * runs;
    qsort(samples, runs, sizeof *samples, compare);
    double p50 = runs % 2 ? samples[runs / 2] : (samples[runs / 2 - 1] + samples[runs / 2]) / 2;
    printf("| %s | %lld | %lld | %.1f | %.1f | %lld | %lld | %lld | %lld |\n", way_names[way], first[way].deleted, first[way].left,
           p50, samples[0], first[way].vm_steps, first[way].fullscan_steps, first[way].sorts, first[way].page_writes);
  }
  free(ms);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "make-tier2") == 0) return make_tier2(argv[2]);
  if (argc == 6 && strcmp(argv[1], "run") == 0 && atoi(argv[4]) > 0) return run(argv[2], argv[3], atoi(argv[4]), argv[5]);
  fprintf(stderr, "usage: pattern_delete make-tier2 FILE | pattern_delete run FILE PATTERN RUNS WORKDIR\n");
  return 64;
}
