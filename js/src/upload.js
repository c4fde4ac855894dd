// "Open file" with a size cap checked in the page, before any byte is read or sent.
//
// The view of the explorer's FileOpener (a subclass of ipywidgets' FileUpload, whose model it
// keeps: the kernel reads `value` exactly as FileUpload's). ipywidgets' own view reads any file
// whole and sends it in one websocket message; past the server's message limit (10 MiB in
// tornado) the server drops the connection and the page loses its kernel without a word. This
// view looks at the file's size first: a file larger than the model's `max_bytes` is not read;
// the view sets `error` to a JSON note ({"refused": "too big", name, size}) that the kernel turns
// into a message beside the button. A file within the cap is read and sent as FileUpload's view
// sends it.
import { DOMWidgetView } from '@jupyter-widgets/base';

export class FileOpenerView extends DOMWidgetView {
  preinitialize() {
    // Must be set before the element is created (as ipywidgets' FileUploadView does).
    this.tagName = 'button';
  }

  render() {
    super.render();
    this.el.classList.add('jupyter-widgets', 'jupyter-button', 'widget-upload', 'explorer-file-open');
    this.input = document.createElement('input');
    this.input.type = 'file';
    this.input.style.display = 'none';
    this.el.addEventListener('click', () => this.input.click());
    this.input.addEventListener('click', () => { this.input.value = ''; });
    this.input.addEventListener('change', () => this.opened());
    this.update();
  }

  refuse(note) {
    this.model.set({ error: JSON.stringify(note) });
    this.touch();
  }

  opened() {
    const file = this.input.files && this.input.files[0];
    if (!file) return;
    const limit = Number(this.model.get('max_bytes')) || 0;
    const about = { name: file.name, size: file.size, limit };
    if (limit > 0 && file.size > limit) {
      this.refuse({ refused: 'too big', ...about });
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      this.model.set({
        value: [{ content: reader.result, name: file.name, type: file.type, size: file.size,
                  last_modified: file.lastModified }],
        error: '',
      });
      this.touch();
    };
    reader.onerror = () => this.refuse({ refused: 'unreadable', ...about });
    reader.onabort = reader.onerror;
    reader.readAsArrayBuffer(file);
  }

  update() {
    this.el.disabled = this.model.get('disabled');
    this.el.setAttribute('title', this.model.get('tooltip') || '');
    this.el.textContent = '';
    const icon = this.model.get('icon');
    if (icon) {
      const i = document.createElement('i');
      i.classList.add('fa', 'fa-' + icon);
      this.el.appendChild(i);
    }
    this.el.appendChild(document.createTextNode(this.model.get('description') || ''));
    this.input.accept = this.model.get('accept') || '';
    this.input.multiple = false;
    return super.update();
  }
}
