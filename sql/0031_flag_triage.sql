-- Issue 34: triage with a trail (docs/triage.md). An analyst's decisions on a flag — confirm, dismiss, reopen, note
-- — are rows appended to flag_decision, a log no role can edit or delete; a flag's status follows its log.
-- Forward only: never edit this file once released; add a new numbered migration instead.
--
-- flag.status stays, as the log's materialisation: it is written only together with a log row, by the two functions
-- below (an analyst's decision, detect's reopening), so every view and report that reads it stays correct. A
-- superseded flag (its store account merged into another) keeps that status: the pipeline's, not an analyst's.
ALTER TABLE flag DROP CONSTRAINT flag_status_check;
ALTER TABLE flag ADD CONSTRAINT flag_status_check
    CHECK (status IN ('open', 'confirmed', 'dismissed', 'superseded'));
COMMENT ON COLUMN flag.status IS 'open; confirmed or dismissed by an analyst (the latest such row of flag_decision); '
    'superseded when its store account was merged into another (see store_account_merge). Written only with a '
    'flag_decision row, by flag_decide and flag_reopen_changed.';

-- What an analyst ruled on: the finding as the flag showed it (not the rule version: a new version that finds the
-- same thing shows the analyst nothing new). Epoch seconds, not timestamps as text, which depend on TimeZone.
CREATE FUNCTION flag_finding_sha256(severity text, window_start timestamptz, window_end timestamptz, score numeric,
    evidence jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN encode(sha256(convert_to(jsonb_build_array(severity, extract(epoch FROM window_start),
    extract(epoch FROM window_end), score, evidence)::text, 'UTF8')), 'hex');

CREATE TABLE flag_decision (
    id              bigserial PRIMARY KEY,
    flag_id         bigint NOT NULL,
    action          text NOT NULL CHECK (action IN ('confirm', 'dismiss', 'reopen', 'note')),
    reason          text CHECK (reason IN ('family-sharing', 'tester', 'known-whale', 'duplicate', 'data-error',
                        'other', 'evidence-changed')),
    note            text NOT NULL DEFAULT '',
    actor           text NOT NULL CHECK (btrim(actor) <> ''),
    database_user   text NOT NULL DEFAULT session_user,
    decided_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    rule            text NOT NULL,
    rule_version    integer NOT NULL,
    finding_sha256  text NOT NULL,
    status_after    text NOT NULL CHECK (status_after IN ('open', 'confirmed', 'dismissed', 'superseded')),
    run_id          bigint,
    -- A dismissal names why, from the documented list; only detect's reopening says evidence-changed.
    CHECK ((action = 'dismiss') = (reason IS NOT NULL AND reason <> 'evidence-changed')),
    CHECK (reason IS DISTINCT FROM 'evidence-changed' OR action = 'reopen')
);
CREATE INDEX flag_decision_flag_idx ON flag_decision (flag_id, id);
COMMENT ON TABLE flag_decision IS 'Every triage decision on a flag, appended and never changed: who (actor: the '
    'analyst as named by IAP_AUDIT_ANALYST or the OS user; database_user: the login), when, on which finding '
    '(finding_sha256 of severity, window, score and evidence) and rule version, and the status it left. No foreign '
    'key to flag: on Citus the log stays on the coordinator while flag is distributed.';

-- Append-only, for every role including the owner's ordinary statements (privileges alone do not bind the owner).
CREATE FUNCTION flag_decision_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'flag_decision is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'a decision is corrected by a new decision (iap-audit flags reopen, note), never by editing';
END
$$;
CREATE TRIGGER flag_decision_no_update_or_delete BEFORE UPDATE OR DELETE ON flag_decision
    FOR EACH ROW EXECUTE FUNCTION flag_decision_refuse_change();
CREATE TRIGGER flag_decision_no_truncate BEFORE TRUNCATE ON flag_decision
    FOR EACH STATEMENT EXECUTE FUNCTION flag_decision_refuse_change();

-- The one way an analyst writes: appends one decision and sets the flag's status from it. SECURITY DEFINER (runs as
-- the pipeline's role, which owns the tables) with a fixed search_path, so the analyst role needs no write privilege
-- on anything; its arguments are checked here, not trusted from the client.
CREATE FUNCTION flag_decide(p_flag_id bigint, p_action text, p_reason text, p_note text, p_actor text)
    RETURNS SETOF flag_decision
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    f       flag%ROWTYPE;
    before  text;
    after   text;
BEGIN
    SELECT * INTO f FROM flag WHERE id = p_flag_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no flag %', p_flag_id USING ERRCODE = 'no_data_found';
    END IF;
    IF p_action NOT IN ('confirm', 'dismiss', 'reopen', 'note') THEN
        RAISE EXCEPTION 'unknown action %', p_action USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_action = 'dismiss' AND (p_reason IS NULL OR p_reason NOT IN ('family-sharing', 'tester', 'known-whale',
            'duplicate', 'data-error', 'other')) THEN
        RAISE EXCEPTION 'a dismissal takes a reason: family-sharing, tester, known-whale, duplicate, data-error or '
            'other (not %)', coalesce(p_reason, 'none') USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_action <> 'dismiss' AND p_reason IS NOT NULL THEN
        RAISE EXCEPTION 'only a dismissal takes a reason code; say why in the text'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF (p_action <> 'dismiss' OR p_reason = 'other') AND btrim(coalesce(p_note, '')) = '' THEN
        RAISE EXCEPTION '% needs a text saying why', CASE WHEN p_action = 'dismiss' THEN 'dismissing as other'
            ELSE p_action END USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF btrim(coalesce(p_actor, '')) = '' THEN
        RAISE EXCEPTION 'a decision names who made it' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF f.status = 'superseded' AND p_action <> 'note' THEN
        RAISE EXCEPTION 'flag % is superseded (its store account was merged into another): decide on the flag of '
            'the merged account', p_flag_id USING ERRCODE = 'invalid_parameter_value';
    END IF;
    before := coalesce((SELECT d.status_after FROM flag_decision d WHERE d.flag_id = p_flag_id
                        ORDER BY d.id DESC LIMIT 1), 'open');
    after := CASE p_action WHEN 'confirm' THEN 'confirmed' WHEN 'dismiss' THEN 'dismissed'
                           WHEN 'reopen' THEN 'open' ELSE before END;
    IF p_action = 'reopen' AND before = 'open' THEN
        RAISE EXCEPTION 'flag % is open already', p_flag_id USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF f.status <> 'superseded' AND f.status <> after THEN
        UPDATE flag SET status = after WHERE id = p_flag_id;
    END IF;
    RETURN QUERY
    INSERT INTO flag_decision (flag_id, action, reason, note, actor, rule, rule_version, finding_sha256, status_after)
    VALUES (p_flag_id, p_action, p_reason, coalesce(p_note, ''), btrim(p_actor), f.rule, f.rule_version,
            flag_finding_sha256(f.severity, f.window_start, f.window_end, f.score, f.evidence),
            CASE WHEN f.status = 'superseded' THEN 'superseded' ELSE after END)
    RETURNING *;
END
$$;
COMMENT ON FUNCTION flag_decide(bigint, text, text, text, text) IS 'Appends one triage decision (confirm, dismiss '
    'with a reason code, reopen, note) to flag_decision and sets the flag''s status from it; the only write an '
    'analyst may make.';

-- Detect's half: after a rule has written its flags, each dismissed flag of that rule whose finding is no longer
-- the one the analyst dismissed reopens, with a log row saying why. An unchanged finding (detect --full over the same
-- data, or a new rule version that finds the same) stays dismissed. Confirmed flags stay confirmed: more evidence of
-- a confirmed case asks nothing new of the analyst. Returns how many reopened.
CREATE FUNCTION flag_reopen_changed(p_rule text, p_run_id bigint) RETURNS integer
LANGUAGE sql AS $$
    WITH latest AS (
        SELECT DISTINCT ON (d.flag_id) d.flag_id, d.status_after, d.finding_sha256, d.reason
        FROM flag_decision d
        WHERE d.rule = p_rule
        ORDER BY d.flag_id, d.id DESC
    ), changed AS (
        SELECT f.id, f.rule, f.rule_version, l.reason AS dismissed_as,
               flag_finding_sha256(f.severity, f.window_start, f.window_end, f.score, f.evidence) AS finding
        FROM latest l
        JOIN flag f ON f.id = l.flag_id
        WHERE l.status_after = 'dismissed' AND f.status <> 'superseded'
          AND l.finding_sha256 <> flag_finding_sha256(f.severity, f.window_start, f.window_end, f.score, f.evidence)
    ), logged AS (
        INSERT INTO flag_decision (flag_id, action, reason, note, actor, rule, rule_version, finding_sha256,
            status_after, run_id)
        SELECT c.id, 'reopen', 'evidence-changed',
               'its evidence changed since it was dismissed (' || c.dismissed_as || '); detect run ' || p_run_id,
               'iap-audit detect', c.rule, c.rule_version, c.finding, 'open', p_run_id
        FROM changed c
        RETURNING flag_id
    ), reopened AS (
        UPDATE flag f SET status = 'open' FROM logged l WHERE f.id = l.flag_id RETURNING f.id
    )
    SELECT count(*)::integer FROM reopened
$$;
COMMENT ON FUNCTION flag_reopen_changed(text, bigint) IS 'Reopens, with a flag_decision row, each dismissed flag of '
    'a rule whose finding changed since its dismissal; detect calls it after writing the rule''s flags.';

-- A flag someone set to dismissed by hand before this log existed keeps its status, now with a row that says so.
INSERT INTO flag_decision (flag_id, action, reason, note, actor, rule, rule_version, finding_sha256, status_after)
SELECT f.id, 'dismiss', 'other', 'dismissed before the triage log existed', 'migration 0031', f.rule, f.rule_version,
       flag_finding_sha256(f.severity, f.window_start, f.window_end, f.score, f.evidence), 'dismissed'
FROM flag f
WHERE f.status = 'dismissed'
ORDER BY f.id;

-- The view flag_triage (each flag with its latest decision) is sql/views/flag_triage.sql: views are defined once.

-- The analyst role reads the log and decides through flag_decide, and nothing more: no INSERT, UPDATE or DELETE on
-- any table. PostgreSQL lets PUBLIC execute every new function: take that back first.
REVOKE ALL ON FUNCTION flag_decide(bigint, text, text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION flag_reopen_changed(text, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION flag_decision_refuse_change() FROM PUBLIC;
REVOKE ALL ON flag_decision FROM PUBLIC;
DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        GRANT SELECT ON flag_decision TO iap_audit_analyst;
        GRANT EXECUTE ON FUNCTION flag_decide(bigint, text, text, text, text) TO iap_audit_analyst;
    END IF;
END
$$;
