package io.pdla.simpfs;

/** 4 KiB strips over all 12 servers: many server boundaries. */
class SimPfsDriverContractTest extends SimPfsContractTest { SimPfsDriverContractTest() { super("1dh,stripe=4k,space=both"); } }
