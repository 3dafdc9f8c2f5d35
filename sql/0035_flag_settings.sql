-- Issue 34: figures per threshold setting (docs/fraud-rules.md, "Settings a flag was found with"). A flag records the
-- rule's [detection.<rule>] settings the latest detect that found it ran with (the `$1` the rule's SQL read: its
-- header-declared settings, or those of the rule its `settings from:` line names), and each triage decision the
-- settings of the flag it was made on, as it records the rule version. report rule-quality splits by them.
-- Forward only: never edit this file once released; add a new numbered migration instead.
ALTER TABLE flag ADD COLUMN settings jsonb;
COMMENT ON COLUMN flag.settings IS 'The rule''s [detection.<rule>] settings of the latest detect that found the flag '
    '(JSON object, {} for a rule without settings); null: found before migration 0035 and not since.';

ALTER TABLE flag_decision ADD COLUMN settings jsonb;
COMMENT ON COLUMN flag_decision.settings IS 'The flag''s settings (flag.settings) when the decision was made; null '
    'when the flag had none recorded.';

-- Filled from the flag at insert, by every writer of the log (flag_decide, flag_reopen_changed): the decision is on
-- the finding those settings produced. A value given explicitly is kept.
CREATE FUNCTION flag_decision_record_settings() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.settings IS NULL THEN
        NEW.settings := (SELECT f.settings FROM flag f WHERE f.id = NEW.flag_id);
    END IF;
    RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION flag_decision_record_settings() FROM PUBLIC;
CREATE TRIGGER flag_decision_settings BEFORE INSERT ON flag_decision
    FOR EACH ROW EXECUTE FUNCTION flag_decision_record_settings();
