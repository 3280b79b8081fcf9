import { describe, expect, it } from 'vitest';
import { memoryReadingOf } from './portfolio';

describe("the portfolio phase's memory reading", () => {
  it('reads the RSS, the heap, buffers outside it and each heap space from the metrics, in MB', () => {
    const text = [
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      'process_resident_memory_bytes 1073741824',
      'nodejs_heap_size_total_bytes 524288000',
      'nodejs_heap_size_used_bytes 419430400',
      'nodejs_external_memory_bytes 52428800',
      'nodejs_heap_space_size_used_bytes{space="old_space"} 314572800',
      'nodejs_heap_space_size_used_bytes{space="large_object_space"} 104857600',
      'nodejs_heap_space_size_total_bytes{space="old_space"} 400000000',
    ].join('\n');
    expect(memoryReadingOf(text, 12)).toEqual({ atS: 12, rssMb: 1024, heapTotalMb: 500, heapUsedMb: 400, externalMb: 50, spacesMb: { old_space: 300, large_object_space: 100 } });
  });

  it('is no reading when the answer holds no RSS (a refused or failed scrape)', () => {
    expect(memoryReadingOf('', 1)).toBeNull();
    expect(memoryReadingOf('{"error":"unauthorized"}', 1)).toBeNull();
  });
});
