import { Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FailureCodeDto } from '../failure-codes.schema';
import './failure-codes-i18n';

export interface FailureCodeChoice {
  problemCodeId: number | null;
  causeCodeId: number | null;
  remedyCodeId: number | null;
}
export const NO_CODES: FailureCodeChoice = { problemCodeId: null, causeCodeId: null, remedyCodeId: null };

/** The codes offered for an asset category: its problems and those for all categories, with their causes and remedies. */
export function codesFor(all: FailureCodeDto[], assetCategoryId: number | null) {
  const problems = all.filter((c) => c.kind === 'problem' && (c.assetCategoryId === null || c.assetCategoryId === assetCategoryId));
  const causesOf = (problemId: number | null) => all.filter((c) => c.kind === 'cause' && c.parentId === problemId);
  const remediesOf = (causeId: number | null) => all.filter((c) => c.kind === 'remedy' && c.parentId === causeId);
  return { problems, causesOf, remediesOf };
}

/** Problem, then cause (of the problem), then remedy (of the cause): the picker of closing a reactive work order (decision 080). */
export function FailureCodeSelect(props: {
  codes: FailureCodeDto[];
  assetCategoryId: number | null;
  value: FailureCodeChoice;
  onChange(value: FailureCodeChoice): void;
  required?: boolean;
  size?: 'sm' | 'md' | 'lg';
}) {
  const { t } = useTranslation('failureCodes');
  const { problems, causesOf, remediesOf } = codesFor(props.codes, props.assetCategoryId);
  const options = (rows: FailureCodeDto[]) => rows.map((c) => ({ value: String(c.id), label: `${c.code} · ${c.name}` }));
  const v = props.value;
  const num = (s: string | null) => (s ? Number(s) : null);
  return (
    <Stack gap="xs">
      <Select
        label={t('problem')}
        withAsterisk={props.required}
        size={props.size}
        data={options(problems)}
        value={v.problemCodeId ? String(v.problemCodeId) : null}
        onChange={(s) => props.onChange({ problemCodeId: num(s), causeCodeId: null, remedyCodeId: null })}
        searchable
        data-testid="failure-problem"
      />
      <Select
        label={t('cause')}
        withAsterisk={props.required}
        size={props.size}
        data={options(causesOf(v.problemCodeId))}
        value={v.causeCodeId ? String(v.causeCodeId) : null}
        onChange={(s) => props.onChange({ ...v, causeCodeId: num(s), remedyCodeId: null })}
        disabled={!v.problemCodeId}
        searchable
        data-testid="failure-cause"
      />
      <Select
        label={t('remedy')}
        withAsterisk={props.required}
        size={props.size}
        data={options(remediesOf(v.causeCodeId))}
        value={v.remedyCodeId ? String(v.remedyCodeId) : null}
        onChange={(s) => props.onChange({ ...v, remedyCodeId: num(s) })}
        disabled={!v.causeCodeId}
        searchable
        data-testid="failure-remedy"
      />
    </Stack>
  );
}
