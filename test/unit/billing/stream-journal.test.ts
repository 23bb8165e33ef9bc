import { appendFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PendingGenerationRow } from '../../../src/billing/ledger-tables.js';
import { journaledInstances, readStreamJournal, removeStreamJournal, StreamJournal, streamJournalPrefix } from '../../../src/billing/stream-journal.js';

let dir: string;
let database: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-journal-'));
  database = join(dir, 'gateway.db');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A stream's pending row as a committed stream marks it: its endpoint named, nothing delivered yet. */
function committed(id: string): PendingGenerationRow {
  return {
    id, account_id: 'acct_a', workspace_id: 'ws_a', key_id: 'key_a', model: 'alpha/chat', streamed: 1, status: 'pending',
    estimated_prompt_tokens: 11, cost_units: '0', cost_lines: '[]', created_at: 1_800_000_000_000, instance_id: 'inst_a',
    hold_id: `hold_${id}`, held_units: '10000', endpoint_id: 'alpha/chat', completion_tokens: 0, prompt_tokens: null,
  };
}

const journalFiles = () => readdirSync(dir).filter((name) => name.includes('-streams-')).sort();

describe('a stream journal', () => {
  it('reads back each open stream as its last checkpoint left it; a checkpoint never lowers the counts; a closed stream is gone from memory', async () => {
    const prefix = streamJournalPrefix(database, 'inst_a');
    const journal = new StreamJournal(prefix);
    await journal.mark(committed('g1'));
    await journal.mark(committed('g2'));
    await journal.checkpoint('g1', { endpointId: 'alpha/chat', completionTokens: 40, promptTokens: 12 });
    await journal.checkpoint('g1', { endpointId: 'alpha/chat', completionTokens: 30 });
    expect(journal.checkpoint('unmarked', { endpointId: 'alpha/chat', completionTokens: 30 })).toBeUndefined();
    journal.close('g2');
    expect(journal.pending('g1')).toMatchObject({ completion_tokens: 40, prompt_tokens: 12 });
    expect(journal.pending('g2')).toBeUndefined();
    // the file keeps every line until it is removed: a reader after a crash sees both marks
    expect(readStreamJournal(prefix)).toEqual([
      { ...committed('g1'), completion_tokens: 40, prompt_tokens: 12 },
      committed('g2'),
    ]);
    expect(journal.openRows().map((row) => row.id)).toEqual(['g1']);
  });

  it('a mark resolves once its line is written, together with the other marks of its turn', async () => {
    const prefix = streamJournalPrefix(database, 'inst_a');
    const journal = new StreamJournal(prefix);
    const marks = [journal.mark(committed('g1')), journal.mark(committed('g2'))];
    expect(readStreamJournal(prefix)).toEqual([]);
    await marks[0];
    expect(readStreamJournal(prefix).map((row) => row.id)).toEqual(['g1', 'g2']);
    await marks[1];
  });

  it('a line cut short by a crash is no mark, and the lines before it still are', async () => {
    const prefix = streamJournalPrefix(database, 'inst_a');
    const journal = new StreamJournal(prefix);
    await journal.mark(committed('g1'));
    appendFileSync(`${prefix}0`, JSON.stringify({ mark: committed('g2') }).slice(0, 80));
    expect(readStreamJournal(prefix).map((row) => row.id)).toEqual(['g1']);
  });

  it('takes new marks in a new file once one is full, and removes a file once every stream marked in it closed', async () => {
    const prefix = streamJournalPrefix(database, 'inst_a');
    // one mark fills a file
    const journal = new StreamJournal(prefix, 100);
    await journal.mark(committed('g1'));
    await journal.mark(committed('g2'));
    await journal.checkpoint('g1', { endpointId: 'alpha/chat', completionTokens: 7 });
    expect(journalFiles()).toEqual(['gateway.db-streams-inst_a.0', 'gateway.db-streams-inst_a.1']);
    journal.close('g1');
    expect(journalFiles()).toEqual(['gateway.db-streams-inst_a.1']);
    // the file taking marks stays while it does, even with nothing open in it
    journal.close('g2');
    expect(journalFiles()).toEqual(['gateway.db-streams-inst_a.1']);
    await journal.mark(committed('g3'));
    expect(journalFiles()).toEqual(['gateway.db-streams-inst_a.2']);
    expect(readStreamJournal(prefix).map((row) => row.id)).toEqual(['g3']);
  });

  it('names the instances that left journals beside the database, and none once their journals are removed or stopped', async () => {
    const stopped = new StreamJournal(streamJournalPrefix(database, 'inst_b'));
    await stopped.mark(committed('g1'));
    const dead = new StreamJournal(streamJournalPrefix(database, 'inst_a'));
    await dead.mark(committed('g2'));
    await new StreamJournal(streamJournalPrefix(join(dir, 'other.db'), 'inst_c')).mark(committed('g3'));
    expect(journaledInstances(database).sort()).toEqual(['inst_a', 'inst_b']);
    stopped.stop();
    removeStreamJournal(streamJournalPrefix(database, 'inst_a'));
    expect(journaledInstances(database)).toEqual([]);
  });

  it('without a file (an in-memory database) keeps its open streams in memory only', async () => {
    const journal = new StreamJournal(null);
    await journal.mark(committed('g1'));
    await journal.checkpoint('g1', { endpointId: 'alpha/chat', completionTokens: 5 });
    expect(journal.pending('g1')).toMatchObject({ completion_tokens: 5 });
    expect(journalFiles()).toEqual([]);
    journal.close('g1');
    expect(journal.openRows()).toEqual([]);
  });
});
