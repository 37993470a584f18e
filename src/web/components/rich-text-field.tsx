import { useEffect, useId } from 'react';
import { Input } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

export interface RichTextFieldProps {
  value: string | null | undefined;
  onChange(html: string): void;
  label?: string;
  error?: string;
  placeholder?: string;
  readOnly?: boolean;
  minHeight?: number;
}

/** Rich text (HTML) for instructions and operations: Mantine tiptap with a small toolbar. */
export function RichTextField({ value, onChange, label, error, readOnly, minHeight = 160 }: RichTextFieldProps) {
  const labelId = useId();
  const editor = useEditor({
    extensions: [StarterKit, Link],
    // the editable box (role="textbox") is named by the field's label
    editorProps: { attributes: label ? { 'aria-labelledby': labelId } : {} },
    content: value ?? '',
    editable: !readOnly,
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  // follow outside changes (a form reset, another record opened)
  useEffect(() => {
    if (!editor) return;
    const next = value ?? '';
    if (next !== (editor.isEmpty ? '' : editor.getHTML())) editor.commands.setContent(next, false);
  }, [editor, value]);
  useEffect(() => {
    editor?.setEditable(!readOnly);
  }, [editor, readOnly]);

  return (
    <Input.Wrapper label={label} labelProps={{ id: labelId }} error={error}>
      <RichTextEditor editor={editor} data-testid="rich-text">
        {!readOnly && (
          <RichTextEditor.Toolbar>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Bold />
              <RichTextEditor.Italic />
              <RichTextEditor.Strikethrough />
              <RichTextEditor.ClearFormatting />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.H2 />
              <RichTextEditor.H3 />
              <RichTextEditor.BulletList />
              <RichTextEditor.OrderedList />
              <RichTextEditor.Blockquote />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Link />
              <RichTextEditor.Unlink />
            </RichTextEditor.ControlsGroup>
            <RichTextEditor.ControlsGroup>
              <RichTextEditor.Undo />
              <RichTextEditor.Redo />
            </RichTextEditor.ControlsGroup>
          </RichTextEditor.Toolbar>
        )}
        <RichTextEditor.Content style={{ minHeight }} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
