import GRDB

/// The domain store's schema. Migrations are named and append-only: never edit one that
/// has shipped, add the next.
enum DomainMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-domain") { db in
            try db.create(table: "players") { t in
                t.primaryKey("id", .text)
                t.column("displayName", .text).notNull()
                t.column("handle", .text).notNull().unique()
                t.column("role", .text).notNull().check(sql: "role IN ('athlete', 'coach', 'admin')")
                t.column("cloudRecordName", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .text).notNull()
            }
            try db.create(table: "courses") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .text).notNull()
            }
            try db.create(table: "course_holes") { t in
                t.column("courseID", .text).notNull().references("courses", onDelete: .cascade)
                t.column("number", .integer).notNull().check(sql: "number BETWEEN 1 AND 36")
                t.column("par", .integer).notNull().check(sql: "par BETWEEN 2 AND 8")
                t.column("distance", .integer).check(sql: "distance IS NULL OR distance > 0")
                t.primaryKey(["courseID", "number"])
            }
            try db.create(table: "rounds") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("courseID", .text).notNull().references("courses")
                t.column("status", .text).notNull().check(sql: "status IN ('scheduled', 'active', 'completed')")
                t.column("startedAt", .datetime)
                t.column("completedAt", .datetime)
                t.column("createdBy", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .text).notNull()
                t.column("version", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "round_players") { t in
                t.column("roundID", .text).notNull().references("rounds", onDelete: .cascade)
                t.column("playerID", .text).notNull().references("players")
                t.column("position", .integer).notNull()
                t.primaryKey(["roundID", "playerID"])
            }
            // No foreign keys here on purpose: through sync an event may arrive before its
            // round or player, and a score must never be refused for that.
            try db.create(table: "score_events") { t in
                t.primaryKey("id", .text)
                t.column("roundID", .text).notNull().indexed()
                t.column("playerID", .text).notNull()
                t.column("hole", .integer).notNull().check(sql: "hole BETWEEN 1 AND 36")
                t.column("strokes", .integer).check(sql: "strokes IS NULL OR strokes BETWEEN 1 AND 99")
                t.column("dnf", .boolean).notNull()
                t.column("reportedBy", .text)
                t.column("deviceID", .text).notNull()
                t.column("supersedes", .text)
                t.column("resolves", .text).notNull().defaults(to: "")
                t.column("recordedAt", .text).notNull()
                t.check(sql: "(dnf = 1 AND strokes IS NULL) OR (dnf = 0 AND strokes IS NOT NULL)")
            }
            // Score events are append-only: the schema itself refuses to change or remove one.
            try db.execute(
                sql: """
                    CREATE TRIGGER score_events_are_immutable BEFORE UPDATE ON score_events
                    BEGIN SELECT RAISE(ABORT, 'score events are append-only'); END;
                    CREATE TRIGGER score_events_are_permanent BEFORE DELETE ON score_events
                    BEGIN SELECT RAISE(ABORT, 'score events are append-only'); END;
                    """)
        }
        // Through sync a round can arrive before its course or players (a renamed course
        // moves to the end of the change feed), so those references cannot be enforced by
        // foreign keys; the pages show such a round once its course has arrived.
        migrator.registerMigration("v2-sync") { db in
            try db.execute(
                sql: """
                    CREATE TABLE rounds_new (
                        id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, courseID TEXT NOT NULL,
                        status TEXT NOT NULL CHECK (status IN ('scheduled', 'active', 'completed')),
                        startedAt DATETIME, completedAt DATETIME, createdBy TEXT,
                        createdAt DATETIME NOT NULL, updatedAt TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0);
                    INSERT INTO rounds_new SELECT id, name, courseID, status, startedAt, completedAt, createdBy, createdAt, updatedAt, version FROM rounds;
                    CREATE TABLE round_players_new (
                        roundID TEXT NOT NULL REFERENCES rounds_new(id) ON DELETE CASCADE,
                        playerID TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (roundID, playerID));
                    INSERT INTO round_players_new SELECT roundID, playerID, position FROM round_players;
                    DROP TABLE round_players;
                    DROP TABLE rounds;
                    ALTER TABLE rounds_new RENAME TO rounds;
                    ALTER TABLE round_players_new RENAME TO round_players;
                    CREATE INDEX rounds_by_course ON rounds(courseID);
                    """)
            try db.create(table: "club_settings") { t in
                t.primaryKey("id", .text).check(sql: "id = 'club-settings'")
                t.column("payload", .blob).notNull()
                t.column("updatedAt", .text).notNull()
            }
        }
        // Accounts: a player may have a password (synced as a bcrypt hash), be disabled, and
        // carry the device it was created on. Handles are no longer unique: the same person
        // created on two devices apart arrives with one handle twice, and the later-sorting id
        // becomes an alias (`aliasOf`, derived here, never synced). Role and account changes
        // made here are kept in an audit log.
        migrator.registerMigration("v3-accounts") { db in
            try db.execute(
                sql: """
                    CREATE TABLE players_new (
                        id TEXT PRIMARY KEY NOT NULL, displayName TEXT NOT NULL, handle TEXT NOT NULL,
                        role TEXT NOT NULL CHECK (role IN ('athlete', 'coach', 'admin')), cloudRecordName TEXT,
                        createdAt DATETIME NOT NULL, updatedAt TEXT NOT NULL,
                        passwordHash TEXT, disabled BOOLEAN NOT NULL DEFAULT 0, originDeviceID TEXT, aliasOf TEXT);
                    INSERT INTO players_new (id, displayName, handle, role, cloudRecordName, createdAt, updatedAt)
                        SELECT id, displayName, handle, role, cloudRecordName, createdAt, updatedAt FROM players;
                    DROP TABLE players;
                    ALTER TABLE players_new RENAME TO players;
                    CREATE INDEX players_by_handle ON players(handle);
                    """)
            try db.create(table: "account_audit") { t in
                t.primaryKey("id", .text)
                t.column("at", .datetime).notNull().indexed()
                t.column("actorID", .text)
                t.column("playerID", .text).notNull()
                t.column("change", .text).notNull()
            }
        }
        // Leagues and tournaments: events with divisions, rounds in an event with a division per
        // player and cards, penalty throws on a score, and players' signatures (append-only,
        // like score events: a signed card stays signed on every device).
        migrator.registerMigration("v4-leagues") { db in
            try db.create(table: "events") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("divisions", .text).notNull().defaults(to: "[]")
                t.column("playoffs", .text).notNull().defaults(to: "{}")
                t.column("createdBy", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .text).notNull()
            }
            try db.alter(table: "rounds") { t in
                t.add(column: "eventID", .text)
                t.add(column: "cards", .text).notNull().defaults(to: "[]")
            }
            try db.create(index: "rounds_by_event", on: "rounds", columns: ["eventID"])
            try db.alter(table: "round_players") { t in
                t.add(column: "division", .text).notNull().defaults(to: "")
            }
            try db.alter(table: "score_events") { t in
                t.add(column: "penalties", .integer).notNull().defaults(to: 0).check(sql: "penalties BETWEEN 0 AND 9")
            }
            try db.create(table: "signatures") { t in
                t.primaryKey("id", .text)
                t.column("roundID", .text).notNull().indexed()
                t.column("playerID", .text).notNull()
                t.column("signedBy", .text)
                t.column("signedAt", .text).notNull()
            }
            try db.execute(
                sql: """
                    CREATE TRIGGER signatures_are_immutable BEFORE UPDATE ON signatures
                    BEGIN SELECT RAISE(ABORT, 'signatures are append-only'); END;
                    CREATE TRIGGER signatures_are_permanent BEFORE DELETE ON signatures
                    BEGIN SELECT RAISE(ABORT, 'signatures are append-only'); END;
                    """)
        }
        // The outbox moves here from sync.sqlite, so that a local write and its outbox entry
        // are one transaction (and one fsync). Entries still in sync.sqlite are carried over
        // on open (`Stores.adoptLegacyOutbox`).
        migrator.registerMigration("v5-outbox") { db in
            try Outbox.createTable(db)
            try db.create(index: "outbox_by_sequence", on: "outbox", columns: ["sequence"])
        }
        // Editing and removing: players, courses, events and rounds can be archived (hidden
        // from pickers and lists, kept in results and sync); a record nothing refers to is
        // deleted instead and leaves a tombstone, so the removal syncs and an older copy
        // arriving later is not brought back. A player withdrawn from a round with scores stays
        // in it, marked. Edits and removals are kept in an audit log (local, like accounts').
        migrator.registerMigration("v6-editing") { db in
            for table in ["players", "courses", "events", "rounds"] {
                try db.alter(table: table) { t in t.add(column: "archived", .boolean).notNull().defaults(to: false) }
            }
            try db.alter(table: "round_players") { t in t.add(column: "withdrawn", .boolean).notNull().defaults(to: false) }
            try db.create(table: "tombstones") { t in
                t.column("recordType", .text).notNull()
                t.column("recordID", .text).notNull()
                t.column("removedAt", .text).notNull()
                t.primaryKey(["recordType", "recordID"])
            }
            try db.create(table: "change_audit") { t in
                t.primaryKey("id", .text)
                t.column("at", .datetime).notNull().indexed()
                t.column("actorID", .text)
                t.column("recordType", .text).notNull()
                t.column("recordID", .text).notNull()
                t.column("change", .text).notNull()
            }
        }
        // A player's usual division: preselected when they join a round of an event that has it.
        migrator.registerMigration("v7-player-division") { db in
            try db.alter(table: "players") { t in t.add(column: "division", .text).notNull().defaults(to: "") }
        }
        // League seasons: a season's rules are read and written whole (JSON); a league night is
        // an event that names its season.
        migrator.registerMigration("v8-seasons") { db in
            try db.create(table: "seasons") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("startsOn", .text)
                t.column("endsOn", .text)
                t.column("divisions", .text).notNull().defaults(to: "[]")
                t.column("points", .text).notNull()
                t.column("handicap", .text)
                t.column("createdBy", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .text).notNull()
            }
            try db.alter(table: "events") { t in t.add(column: "seasonID", .text) }
            try db.create(index: "events_by_season", on: "events", columns: ["seasonID"])
        }
        // Check-in for league nights: one row per player and night (id: "event/player"), a
        // walk-up being a player made at check-in.
        migrator.registerMigration("v9-checkins") { db in
            try db.create(table: "checkins") { t in
                t.primaryKey("id", .text)
                t.column("eventID", .text).notNull().indexed()
                t.column("playerID", .text).notNull()
                t.column("division", .text).notNull().defaults(to: "")
                t.column("paid", .boolean).notNull().defaults(to: false)
                t.column("checkedInBy", .text)
                t.column("checkedInAt", .datetime).notNull()
                t.column("updatedAt", .text).notNull()
            }
        }
        migrator.registerMigration("v10-frozen-handicaps") { db in
            try db.create(table: "frozen_handicaps") { t in
                t.primaryKey("id", .text)
                t.column("eventID", .text).notNull().indexed()
                t.column("playerID", .text).notNull()
                t.column("handicap", .text).notNull()
                t.column("frozenAt", .text).notNull()
            }
        }
        migrator.registerMigration("v11-checkin-open") { db in
            try db.alter(table: "events") { t in t.add(column: "checkInOpenedAt", .datetime) }
        }
        migrator.registerMigration("v12-league-edits") { db in
            try db.alter(table: "seasons") { t in t.add(column: "archived", .boolean).notNull().defaults(to: false) }
            try db.alter(table: "checkins") { t in t.add(column: "cancelled", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v13-fee-payments") { db in
            try db.create(table: "fee_payments") { t in
                t.primaryKey("id", .text)
                t.column("eventID", .text).notNull().indexed()
                t.column("playerID", .text).notNull()
                t.column("paid", .boolean).notNull()
                t.column("recordedBy", .text)
                t.column("recordedAt", .text).notNull()
            }
        }
        migrator.registerMigration("v14-entered-rating") { db in
            try db.alter(table: "players") { t in t.add(column: "enteredRating", .integer) }
        }
        migrator.registerMigration("v15-player-pdga-email") { db in
            try db.alter(table: "players") { t in
                t.add(column: "pdgaNumber", .integer)
                t.add(column: "email", .text)
            }
        }
        migrator.registerMigration("v16-event-played-on") { db in
            try db.alter(table: "events") { t in t.add(column: "playedOn", .text) }
        }
        // Pulled records this build cannot read, as the cloud had them (`DomainStore+Quarantine`).
        migrator.registerMigration("v17-sync-quarantine") { db in
            try db.create(table: "quarantine") { t in
                t.column("recordType", .text).notNull()
                t.column("recordID", .text).notNull()
                t.column("hlc", .text).notNull()
                t.column("payload", .blob).notNull()
                t.column("reason", .text).notNull()
                t.column("firstSeenAt", .datetime).notNull()
                t.column("lastSeenAt", .datetime).notNull()
                t.primaryKey(["recordType", "recordID"])
            }
        }
        // Bag tags: pools and a coach's moves; who holds which tag is derived (`BagTags`).
        migrator.registerMigration("v18-bag-tags") { db in
            try db.create(table: "tag_pools") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                // Space-separated, ascending.
                t.column("numbers", .text).notNull()
                t.column("seasonID", .text)
                t.column("createdBy", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .text).notNull()
                t.column("archived", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "tag_moves") { t in
                t.primaryKey("id", .text)
                t.column("poolID", .text).notNull().indexed()
                t.column("kind", .text).notNull()
                t.column("tag", .integer)
                t.column("playerID", .text)
                t.column("otherPlayerID", .text)
                t.column("recordedBy", .text)
                t.column("recordedAt", .text).notNull()
            }
            try db.alter(table: "rounds") { t in t.add(column: "tagsID", .text) }
            try db.create(index: "rounds_by_tags", on: "rounds", columns: ["tagsID"], condition: Column("tagsID") != nil)
        }
        migrator.registerMigration("v19-tag-challenges") { db in
            try db.create(table: "tag_challenges") { t in
                t.primaryKey("id", .text)
                t.column("poolID", .text).notNull().indexed()
                t.column("challengerID", .text).notNull()
                // Space-separated.
                t.column("challengedIDs", .text).notNull()
                t.column("deadline", .datetime).notNull()
                t.column("status", .text).notNull()
                t.column("roundID", .text)
                t.column("createdBy", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .text).notNull()
            }
        }
        // Money: pots, the books' entries, amounts on the fee ledger and a season's fees.
        migrator.registerMigration("v20-money") { db in
            try db.create(table: "pots") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("seasonID", .text)
                t.column("capCents", .integer)
                t.column("overflowPotID", .text)
                t.column("createdBy", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .text).notNull()
                t.column("archived", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "money_entries") { t in
                t.primaryKey("id", .text)
                t.column("kind", .text).notNull()
                t.column("cents", .integer).notNull()
                t.column("potID", .text).indexed()
                t.column("toPotID", .text)
                t.column("eventID", .text).indexed()
                t.column("playerID", .text)
                t.column("division", .text)
                t.column("place", .integer)
                t.column("method", .text)
                t.column("batchID", .text)
                t.column("note", .text)
                t.column("recordedBy", .text)
                t.column("recordedAt", .text).notNull()
            }
            try db.alter(table: "fee_payments") { t in
                t.add(column: "cents", .integer)
                // JSON: [{"fund","cents"}], as the season's plan split the amount.
                t.add(column: "funds", .text)
                t.add(column: "division", .text)
                // JSON: the season's payout table when the fee was paid.
                t.add(column: "payout", .text)
            }
            // JSON: the season's `FeePlan`.
            try db.alter(table: "seasons") { t in t.add(column: "fees", .text) }
        }
        // Formats: a round's format, its teams (JSON) and how its cali plays.
        migrator.registerMigration("v21-formats") { db in
            try db.alter(table: "rounds") { t in
                t.add(column: "format", .text).notNull().defaults(to: "stroke")
                t.add(column: "teams", .text).notNull().defaults(to: "")
                t.add(column: "caliRule", .text)
            }
        }
        // Brackets: an event's single-elimination bracket, and the match a round plays.
        migrator.registerMigration("v22-brackets") { db in
            try db.create(table: "brackets") { t in
                t.primaryKey("id", .text)
                t.column("eventID", .text).notNull().indexed()
                t.column("seeds", .text).notNull()
                t.column("matchIDs", .text).notNull()
                t.column("deadlines", .text).notNull()
                t.column("conceded", .text).notNull()
                t.column("createdBy", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .text).notNull()
            }
            try db.alter(table: "rounds") { t in t.add(column: "matchID", .text) }
        }
        // A putting round's score is the putts made from a lie, 0 too: the table is built again
        // with the wider check (SQLite cannot alter one), its events copied as they are.
        migrator.registerMigration("v23-putting") { db in
            try db.alter(table: "rounds") { t in t.add(column: "putting", .text).notNull().defaults(to: "") }
            let columns = "id, roundID, playerID, hole, strokes, dnf, reportedBy, deviceID, supersedes, resolves, recordedAt, penalties"
            try db.execute(
                sql: """
                    CREATE TABLE score_events_new (
                        "id" TEXT PRIMARY KEY NOT NULL, "roundID" TEXT NOT NULL, "playerID" TEXT NOT NULL,
                        "hole" INTEGER NOT NULL CHECK (hole BETWEEN 1 AND 36),
                        "strokes" INTEGER CHECK (strokes IS NULL OR strokes BETWEEN 0 AND 99),
                        "dnf" BOOLEAN NOT NULL, "reportedBy" TEXT, "deviceID" TEXT NOT NULL, "supersedes" TEXT,
                        "resolves" TEXT NOT NULL DEFAULT '', "recordedAt" TEXT NOT NULL,
                        "penalties" INTEGER NOT NULL CHECK (penalties BETWEEN 0 AND 9) DEFAULT 0,
                        CHECK ((dnf = 1 AND strokes IS NULL) OR (dnf = 0 AND strokes IS NOT NULL)));
                    INSERT INTO score_events_new (\(columns)) SELECT \(columns) FROM score_events;
                    DROP TABLE score_events;
                    ALTER TABLE score_events_new RENAME TO score_events;
                    CREATE INDEX score_events_on_roundID ON score_events(roundID);
                    CREATE TRIGGER score_events_are_immutable BEFORE UPDATE ON score_events
                    BEGIN SELECT RAISE(ABORT, 'score events are append-only'); END;
                    CREATE TRIGGER score_events_are_permanent BEFORE DELETE ON score_events
                    BEGIN SELECT RAISE(ABORT, 'score events are append-only'); END;
                    """)
        }
        // Mulligan nights: a round's allowance, mulligans used on a score, and the sales of
        // mulligans (append-only, like signatures: a correction is a sale giving some back).
        migrator.registerMigration("v24-mulligans") { db in
            try db.alter(table: "rounds") { t in t.add(column: "mulligans", .text).notNull().defaults(to: "") }
            try db.alter(table: "score_events") { t in
                t.add(column: "mulligans", .integer).notNull().defaults(to: 0).check(sql: "mulligans BETWEEN 0 AND 9")
            }
            try db.create(table: "mulligan_sales") { t in
                t.primaryKey("id", .text)
                t.column("roundID", .text).notNull().indexed()
                t.column("playerID", .text).notNull()
                t.column("count", .integer).notNull().check(sql: "count BETWEEN -9 AND 9 AND count != 0")
                t.column("cents", .integer).notNull()
                t.column("recordedBy", .text)
                t.column("recordedAt", .text).notNull()
            }
            try db.execute(
                sql: """
                    CREATE TRIGGER mulligan_sales_are_immutable BEFORE UPDATE ON mulligan_sales
                    BEGIN SELECT RAISE(ABORT, 'mulligan sales are append-only'); END;
                    CREATE TRIGGER mulligan_sales_are_permanent BEFORE DELETE ON mulligan_sales
                    BEGIN SELECT RAISE(ABORT, 'mulligan sales are append-only'); END;
                    """)
        }
        return migrator
    }
}
