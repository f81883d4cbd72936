package io.pdla.replicator.queue;

import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.CatalogTxn;
import io.pdla.catalog.pattern.PatternCodec;
import io.pdla.pattern.KeyedPattern;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** The replication queue as a Berkeley DB database of the catalog environment (database {@code queue}). */
public final class CatalogPatternQueue implements PatternQueue {
    private final CatalogAccess catalog;

    public CatalogPatternQueue(CatalogAccess catalog) {
        this.catalog = catalog;
    }

    @Override
    public long offer(KeyedPattern pattern) throws IOException {
        byte[] bytes = PatternCodec.encode(pattern);
        return catalog.transact(t -> t.enqueue(bytes, pattern.key().global()));
    }

    @Override
    public List<Long> offerAll(List<KeyedPattern> patterns) throws IOException {
        List<byte[]> encoded = new ArrayList<>(patterns.size());
        for (KeyedPattern p : patterns) encoded.add(PatternCodec.encode(p));
        return catalog.transact(t -> {
            List<Long> tickets = new ArrayList<>(patterns.size());
            for (int i = 0; i < patterns.size(); i++) tickets.add(t.enqueue(encoded.get(i), patterns.get(i).key().global()));
            return tickets;
        });
    }

    @Override
    public List<QueuedPattern> pending() throws IOException {
        List<CatalogTxn.QueueItem> items = catalog.transact(CatalogTxn::queueItems);
        List<QueuedPattern> out = new ArrayList<>(items.size());
        for (CatalogTxn.QueueItem i : items) {
            try {
                out.add(new QueuedPattern(i.ticket(), PatternCodec.decode(i.pattern()), null));
            } catch (IllegalArgumentException e) {
                out.add(new QueuedPattern(i.ticket(), null, "queue item " + i.ticket() + " in " + catalog.location() + ": " + e.getMessage()));
            }
        }
        return out;
    }

    @Override
    public boolean acknowledge(QueuedPattern item) throws IOException {
        return catalog.transact(t -> t.dequeue(item.ticket()));
    }
}
