import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stored response whose id comes back from the upstream a second time is rewritten in place (the
 * store's upsert): its new turn may continue a different conversation. The trigger of 1740000000000
 * named the conversation (`chain_id`) on insert only, so the rewritten row stayed grouped with its old
 * one, and the expiry sweep judged it by that conversation's age. It now also names it again when an
 * update changes `previous_id`. Rows that continued the rewritten one keep theirs: their turns were
 * answered from its old content, and nothing can make that conversation whole again.
 */
export class ResponsesRewrittenTurn1741000000000 implements MigrationInterface {
  name = 'ResponsesRewrittenTurn1741000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION chat.responses_chain_id() RETURNS trigger LANGUAGE plpgsql
      SET plan_cache_mode = force_custom_plan AS $$
      BEGIN
        IF TG_OP = 'INSERT' AND NEW.chain_id IS NOT NULL THEN RETURN NEW; END IF;
        IF TG_OP = 'UPDATE' AND NEW.previous_id IS NOT DISTINCT FROM OLD.previous_id THEN RETURN NEW; END IF;
        -- A row that names itself as the turn it continued is its own conversation.
        NEW.chain_id := COALESCE((SELECT chain_id FROM chat.responses WHERE id = NEW.previous_id AND id <> NEW.id), NEW.id);
        RETURN NEW;
      END $$`);
    await q.query(`DROP TRIGGER responses_chain_id ON chat.responses`);
    await q.query(
      `CREATE TRIGGER responses_chain_id BEFORE INSERT OR UPDATE OF previous_id ON chat.responses
       FOR EACH ROW EXECUTE FUNCTION chat.responses_chain_id()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER responses_chain_id ON chat.responses`);
    await q.query(`
      CREATE OR REPLACE FUNCTION chat.responses_chain_id() RETURNS trigger LANGUAGE plpgsql
      SET plan_cache_mode = force_custom_plan AS $$
      BEGIN
        IF NEW.chain_id IS NULL THEN
          NEW.chain_id := COALESCE((SELECT chain_id FROM chat.responses WHERE id = NEW.previous_id), NEW.id);
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(
      `CREATE TRIGGER responses_chain_id BEFORE INSERT ON chat.responses FOR EACH ROW EXECUTE FUNCTION chat.responses_chain_id()`,
    );
  }
}
