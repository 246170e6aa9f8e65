-- drizzle-kit has no storage parameters. At fillfactor 50 a third of the leases found no room on
-- their row's page (a claim window leases about twelve rows of a page at once) and wrote an entry
-- in every index of deliveries; at 30 each page keeps room for its rows' leases, so every lease is
-- a HOT update, and a result's new version lands on its row's page more often. It applies to pages
-- written from now on.
ALTER TABLE "deliveries" SET (fillfactor = 30);
