// The SQL floor of an unchanged refetch a step later (docs/ttl.md#what-an-unchanged-refetch-costs):
// what SQLite alone spends to load a record by key, and to write its new date, in each layout's
// table. scripts/refresh-floor builds it and counts each phase under callgrind.
//
//   refresh_floor LAYOUT DIRECTORY   LAYOUT: compact, apollo, rows, or dates (compact with a
//                                    table of dates of its own); the file goes in DIRECTORY
//
// 2,048 records of 10 fields (150 to 350 bytes a record; 10 rows a record in `rows`), WAL,
// synchronous NORMAL, as refresh.json's stores; the load and the refresh in one transaction, as a
// merge runs them, with the statements the layouts use (32 keys to a statement, as they batch).
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RECORDS = 2048, FIELDS = 10, BATCH = 32 };
static sqlite3 *db;
static char keys[RECORDS][32];
static const char *layout;

static void fail(const char *what) {
  fprintf(stderr, "refresh_floor: %s: %s\n", what, sqlite3_errmsg(db));
  exit(1);
}
static void run(const char *sql) {
  if (sqlite3_exec(db, sql, 0, 0, 0) != SQLITE_OK) fail(sql);
}
static sqlite3_stmt *prepare(const char *sql) {
  sqlite3_stmt *statement;
  if (sqlite3_prepare_v2(db, sql, -1, &statement, 0) != SQLITE_OK) fail(sql);
  return statement;
}
static void step_done(sqlite3_stmt *statement) {
  if (sqlite3_step(statement) != SQLITE_DONE) fail("step");
  sqlite3_reset(statement);
}
// "prefix ?3, ... suffix": BATCH placeholders from ?3, each as `item` with %d its number.
static sqlite3_stmt *batched(const char *prefix, const char *item, const char *suffix) {
  static char sql[8192];
  int n = snprintf(sql, sizeof sql, "%s", prefix);
  for (int j = 0; j < BATCH; j++) {
    if (j) n += snprintf(sql + n, sizeof sql - n, ", ");
    n += snprintf(sql + n, sizeof sql - n, item, j + 3);
  }
  snprintf(sql + n, sizeof sql - n, "%s", suffix);
  return prepare(sql);
}
static int is(const char *name) { return strcmp(layout, name) == 0; }

static void fill(void) {
  // A record's bytes: any bytes in a blob, letters in text.
  static unsigned char blob[400];
  static char text[400];
  for (int i = 0; i < (int)sizeof blob; i++) {
    blob[i] = (unsigned char)(i * 7 + 1);
    text[i] = (char)('a' + i % 26);
  }
  if (is("rows")) {
    run("CREATE TABLE records(cache_key TEXT NOT NULL, field_name TEXT NOT NULL, position INTEGER NOT NULL DEFAULT -1, "
        "int_value INTEGER, string_value TEXT, float_value REAL, bool_value INTEGER, child_key_value TEXT, "
        "custom_scalar_value TEXT, written_at INTEGER NOT NULL, PRIMARY KEY (cache_key, field_name, position)) WITHOUT ROWID");
  } else if (is("apollo")) {
    run("CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT)");
  } else {
    run("CREATE TABLE records(key TEXT PRIMARY KEY NOT NULL, data BLOB NOT NULL) WITHOUT ROWID");
    if (is("dates")) run("CREATE TABLE dates(key TEXT PRIMARY KEY NOT NULL, written_at INTEGER NOT NULL) WITHOUT ROWID");
  }
  run("BEGIN");
  sqlite3_stmt *insert = prepare(
    is("rows") ? "INSERT INTO records(cache_key, field_name, string_value, written_at) VALUES (?1, ?2, ?3, 1000)"
    : is("apollo") ? "INSERT INTO records(key, record) VALUES (?1, ?3)"
    : "INSERT INTO records(key, data) VALUES (?1, ?3)");
  sqlite3_stmt *date = is("dates") ? prepare("INSERT INTO dates VALUES (?1, 1000)") : 0;
  for (int i = 0; i < RECORDS; i++) {
    int bytes = 150 + (i * 37) % 200;
    snprintf(keys[i], sizeof keys[i], "Item:%d.%s", (i * 7919) % 100000, i % 3 ? "details" : "author");
    for (int field = 0; field < (is("rows") ? FIELDS : 1); field++) {
      char name[16];
      snprintf(name, sizeof name, "field_%d", field);
      sqlite3_bind_text(insert, 1, keys[i], -1, SQLITE_STATIC);
      sqlite3_bind_text(insert, 2, name, -1, SQLITE_STATIC);
      if (is("apollo") || is("rows")) {
        sqlite3_bind_text(insert, 3, text, is("rows") ? bytes / FIELDS : bytes, SQLITE_STATIC);
      } else {
        sqlite3_bind_blob(insert, 3, blob, bytes, SQLITE_STATIC);
      }
      step_done(insert);
    }
    if (date) {
      sqlite3_bind_text(date, 1, keys[i], -1, SQLITE_STATIC);
      step_done(date);
    }
  }
  sqlite3_finalize(insert);
  if (date) sqlite3_finalize(date);
  run("COMMIT");
  run("PRAGMA wal_checkpoint(TRUNCATE)");
}

// Every record loaded by key: the whole of an unchanged merge's SQL.
__attribute__((noinline)) void phase_load(void) {
  sqlite3_stmt *select = prepare(
    is("rows") ? "SELECT field_name, position, int_value, string_value, float_value, bool_value, child_key_value, "
                 "custom_scalar_value, written_at FROM records WHERE cache_key = ?1 ORDER BY field_name, position"
    : is("apollo") ? "SELECT record FROM records WHERE key = ?1"
    : is("dates") ? "SELECT data, (SELECT written_at FROM dates WHERE dates.key = records.key) FROM records WHERE key = ?1"
    : "SELECT data FROM records WHERE key = ?1");
  long bytes = 0;
  for (int i = 0; i < RECORDS; i++) {
    sqlite3_bind_text(select, 1, keys[i], -1, SQLITE_STATIC);
    while (sqlite3_step(select) == SQLITE_ROW) bytes += sqlite3_column_bytes(select, is("rows") ? 3 : 0);
    sqlite3_reset(select);
  }
  sqlite3_finalize(select);
  if (bytes == 0) fail("no rows loaded");
}

// Every record's new date written, as the layout writes it.
__attribute__((noinline)) void phase_refresh(void) {
  static const unsigned char form[9] = {1, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 7};
  sqlite3_stmt *statement =
    is("rows") ? batched("UPDATE OR FAIL records SET written_at = ?1 WHERE cache_key IN (", "?%d", ") AND field_name NOT IN ('', '$')")
    : is("apollo") ? batched("INSERT OR FAIL INTO records(key, record) VALUES ", "(?%d, '')",
                             " ON CONFLICT(key) DO UPDATE SET record = ?1 || substr(CAST(record AS BLOB), ?2)")
    : is("dates") ? batched("UPDATE OR FAIL dates SET written_at = ?1 WHERE key IN (", "?%d", ")")
    : batched("INSERT OR FAIL INTO records(key, data) VALUES ", "(?%d, X'')",
              " ON CONFLICT(key) DO UPDATE SET data = CAST(?1 || substr(data, ?2) AS BLOB)");
  for (int i = 0; i + BATCH <= RECORDS; i += BATCH) {
    if (is("rows") || is("dates")) sqlite3_bind_int64(statement, 1, 2000);
    else sqlite3_bind_blob(statement, 1, form, sizeof form, SQLITE_STATIC);
    sqlite3_bind_int(statement, 2, 10);
    for (int j = 0; j < BATCH; j++) sqlite3_bind_text(statement, j + 3, keys[i + j], -1, SQLITE_STATIC);
    step_done(statement);
  }
  sqlite3_finalize(statement);
}

__attribute__((noinline)) void phase_commit(void) { run("COMMIT"); }

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: refresh_floor compact|apollo|rows|dates DIRECTORY\n");
    return 64;
  }
  layout = argv[1];
  if (!is("compact") && !is("apollo") && !is("rows") && !is("dates")) {
    fprintf(stderr, "refresh_floor: no layout %s (compact, apollo, rows or dates)\n", layout);
    return 64;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/floor-%s.sqlite", argv[2], layout);
  for (const char *suffix = ""; suffix; suffix = *suffix ? (suffix[1] == 'w' ? "-shm" : 0) : "-wal") {
    char file[4200];
    snprintf(file, sizeof file, "%s%s", path, suffix);
    remove(file);
  }
  if (sqlite3_open(path, &db) != SQLITE_OK) fail(path);
  run("PRAGMA journal_mode=WAL");
  run("PRAGMA synchronous=NORMAL");
  fill();
  run("BEGIN");
  phase_load();
  phase_refresh();
  phase_commit();
  sqlite3_close(db);
  printf("%d\n", RECORDS);
  return 0;
}
