/**
 * The replica catalog: one Berkeley DB JE environment (through {@code pdla-bdb}) recording every replica, its
 * state and its original's identity, the open write sessions and the replication queue.
 *
 * <p><b>How processes on many hosts share it</b> (the decision of issue 31, {@code docs/cluster.md}, "Shared state:
 * who opens the databases"): no service. Every user of the catalog (each rank's redirect interceptor, the daemon,
 * {@code pdla sync}, {@code pdla replicas}) opens the environment for one transaction and closes it again
 * ({@link io.pdla.catalog.TransientCatalogAccess}), so processes on any host take turns on the environment's file
 * lock on the shared file system; one that finds it held retries with back-off for a bounded wait
 * ({@link io.pdla.catalog.CatalogLockedException} after it). The pattern database is shared the same way. A write
 * session's steps (begin, claim, end) are each one durable transaction, so writers on different hosts agree on
 * which replica takes which write. A catalog server or JE HA would add a service to run, fail over and secure for a
 * few transactions per open; it remains the path for a file system that cannot give coherent locks and durable
 * fsync.
 *
 * <p>This module sits below both the rank side ({@code redirect}) and the daemon ({@code replicator}), so a rank
 * that redirects loads the catalog, the guard and the copy back without the daemon's module.
 */
package io.pdla.catalog;
