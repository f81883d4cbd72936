package io.pdla.simpfs.config;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * The servers' flows (OrangeFS's bmi_trove flow protocol): a sub-request moves between network and device in
 * buffers of {@code bufferKB}, with up to {@code buffersPerFlow} buffers in flight, so the disk reads buffer
 * k+1 while buffer k crosses the network. {@code bufferKB = 0} moves a sub-request as one unit (device and
 * network times add, the model before issue 17). Defaults: OrangeFS's FlowBufferSizeBytes (256 KiB) and
 * FlowBuffersPerFlow (8).
 */
public record FlowParams(int bufferKB, int buffersPerFlow) {
    public static final FlowParams DEFAULT = new FlowParams(256, 8);
    public static final FlowParams WHOLE = new FlowParams(0, 1);

    public FlowParams {
        if (bufferKB < 0) throw new ConfigException("flow.bufferKB must be >= 0, was " + bufferKB);
        if (buffersPerFlow < 1) throw new ConfigException("flow.buffersPerFlow must be >= 1, was " + buffersPerFlow);
    }

    /** Bytes per buffer; {@code Long.MAX_VALUE} when a sub-request moves as one unit. */
    @JsonIgnore
    public long bufferBytes() {
        return bufferKB == 0 ? Long.MAX_VALUE : bufferKB * 1024L;
    }
}
